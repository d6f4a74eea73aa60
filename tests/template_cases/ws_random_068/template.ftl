<#if true><#attempt><#assign v = 1> c<#if true>b </#if><#recover><#nt><#t></#attempt>

</#if>

