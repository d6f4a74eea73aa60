SELECT <#t>
<#list cols as c>
  ${c.name}<#sep>, </#sep><#t>
</#list>
 FROM ${table}
