<#t>
  <#noparse>
  </#noparse><#assign v = 1>