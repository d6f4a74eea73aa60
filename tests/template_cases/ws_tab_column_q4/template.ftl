  y<#t>x
