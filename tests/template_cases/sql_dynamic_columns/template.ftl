SELECT
<#list columns as c>
  ${c}<#sep>,</#sep>
</#list>
FROM orders
