<#nt><#assign v = 1>

<#lt>x
