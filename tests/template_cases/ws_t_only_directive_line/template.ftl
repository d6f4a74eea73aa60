a
<#t>
b
