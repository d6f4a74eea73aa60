
<#noparse>x
</#noparse>  <#noparse> y z </#noparse>