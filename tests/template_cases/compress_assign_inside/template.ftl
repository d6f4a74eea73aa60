<#compress>
<#assign x = 1>
  v = ${x}
</#compress>