<#assign a = 1>
<#assign b = 2>
value: ${a + b}
