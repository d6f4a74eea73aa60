<#if true>
  x
  <#lt>  </#if>
y
