

<#assign x = 1>
<#assign y = 2>
result ${x}${y}
