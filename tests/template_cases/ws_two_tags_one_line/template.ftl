A
<#if true><#if true>
B
</#if></#if>
C
