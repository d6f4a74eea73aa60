A <#if true>x</#if> B
<#if true>y</#if>
