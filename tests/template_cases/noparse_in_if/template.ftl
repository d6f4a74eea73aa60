<#if true>
<#noparse>
  <#x>
</#noparse>
</#if>
