<#list cols>
SELECT
  <#items as c>
  ${c}<#sep>,</#sep>
  </#items>
FROM t
</#list>
