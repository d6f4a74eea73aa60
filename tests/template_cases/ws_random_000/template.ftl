<#assign v = 1><#if false>x
<#else>${1}<#lt>a<#compress><#t><#if true>  b a</#if> y z <#assign v = 1></#compress></#if>