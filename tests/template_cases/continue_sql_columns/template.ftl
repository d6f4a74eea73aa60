SELECT
<#list cols as c>
<#if c.hidden><#continue></#if>
  ${c.name}<#sep>,</#sep>
</#list>
FROM t
