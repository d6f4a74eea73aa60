<#assign a=1>${a}
<#assign b=2> ${b}
