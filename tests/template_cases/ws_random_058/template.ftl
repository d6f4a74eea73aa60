<#macro m>a<#if true>  </#if></#macro><#-- c --><@m/><#-- c --><#-- c -->  


<#assign v = 1>