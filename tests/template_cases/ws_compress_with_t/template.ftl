<#compress>
  a   <#t>
  b
</#compress>|
