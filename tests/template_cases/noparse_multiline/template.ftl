a
<#noparse>
  ${user}
  <#list>
</#noparse>
b
