<#assign page_size = limit>
<#assign offset = (page - 1) * page_size>
SELECT * FROM t LIMIT ${page_size} OFFSET ${offset}
