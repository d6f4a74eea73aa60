SELECT * FROM t
<#if filters?has_content>
WHERE
  <#list filters as f>
  ${f.col} <#if f.op == "eq">=<#elseif f.op == "ne"><><#else>LIKE</#if> '${f.val}'<#sep> AND</#sep>
  </#list>
</#if>
