<#macro m><#assign v = 1><#t><#if false>b <#assign v = 1><#else><#if true>  
a y z  cb </#if>x
</#if></#macro><#compress><#noparse>b </#noparse><#compress><#rt>

    
<#rt></#compress></#compress><#nt>a<@m/><#assign v = 1><#list 1..2 as i>  ${1}  
</#list><#lt>