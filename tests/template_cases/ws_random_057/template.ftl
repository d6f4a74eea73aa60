  
<#list 1..2 as i><#if true><#t><#if true>


</#if>

<#-- c --><#if true>
 y z </#if></#if>
<#t></#list>b 