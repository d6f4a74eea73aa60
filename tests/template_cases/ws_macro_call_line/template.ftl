<#macro m>M</#macro>
A
  <@m/>  
B
