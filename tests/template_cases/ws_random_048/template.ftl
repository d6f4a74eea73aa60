<#macro m>  x
</#macro><#if false><#compress><#list 1..2 as i>

a</#list>
<#-- c --><#nt></#compress><#assign v = 1>
<#else>  
<#t></#if><#if true>
<#if true><#list 1..2 as i>  x
 y z  y z   </#list>b <#-- c --></#if></#if><#-- c --><#t><@m/><#list 1..2 as i><#noparse>b </#noparse><#t></#list>${1}<#assign v = 1>