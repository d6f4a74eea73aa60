SELECT
<#list cols?filter(c -> !(c.hidden!false)) as c>
  ${c.name}<#sep>,</#sep>
</#list>
FROM ${table}
