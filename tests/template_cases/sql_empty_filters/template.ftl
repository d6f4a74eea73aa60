SELECT * FROM t
<#if filters?has_content>
WHERE x
</#if>
ORDER BY 1
