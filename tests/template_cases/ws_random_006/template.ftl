<#macro m>  
<#t></#macro><#if true> y z <#assign v = 1></#if><#list 1..2 as i>
<#if true><#if true> y z b ab  c</#if></#if><#assign v = 1></#list>  
<@m/><#if true> y z <#noparse>  
</#noparse>b </#if><#rt>${1}