SELECT
<#list cols as c>
  ${c}<#sep>,</#sep>
</#list>
FROM t
