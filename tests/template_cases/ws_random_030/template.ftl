<#assign v = 1>x
a