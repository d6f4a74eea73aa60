<#if true>T<#else>F</#if>
<#if false>
T
<#else>
F
</#if>
