a
<#if true>
b
</#if>
c
