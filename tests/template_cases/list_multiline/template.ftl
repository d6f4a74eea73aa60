<#list tags as t>
  - ${t}
</#list>
