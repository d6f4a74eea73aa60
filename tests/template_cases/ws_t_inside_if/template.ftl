<#if true>
  one <#t>
  two
</#if>
