x
<#switch 1>
<#case 1>
one
<#break>
</#switch>
y
