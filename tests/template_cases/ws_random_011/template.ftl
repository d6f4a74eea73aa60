

<#assign v = 1>