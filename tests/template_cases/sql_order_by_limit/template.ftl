SELECT * FROM orders
ORDER BY ${sort.column} ${sort.desc?then('DESC', 'ASC')}
<#switch dialect>
  <#case "MSSQL">
OFFSET 0 ROWS FETCH NEXT ${limit} ROWS ONLY
    <#break>
  <#default>
LIMIT ${limit}
</#switch>
