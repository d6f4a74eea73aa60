<#switch dialect>
  <#case 'POSTGRES'>
    LIMIT ${n}
    <#break>
  <#case 'MSSQL'>
    TOP ${n}
    <#break>
</#switch>
