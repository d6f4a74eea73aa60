<#macro m>M</#macro>
  <@m/> <#t>
  x
