<#if !active>
A
<#else>
B
</#if>
