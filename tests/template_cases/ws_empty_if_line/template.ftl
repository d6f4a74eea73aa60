a
<#if false></#if>
b
