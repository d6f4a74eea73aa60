<#if true>	<#attempt><#t><#t><#recover>a  


</#attempt><#rt></#if>  
<#compress><#if false><#assign v = 1><#lt><#else><#-- c --><#noparse> c</#noparse>x

</#if><#attempt><#list 1..2 as i>b </#list><#recover>x

</#attempt></#compress><#list 1..2 as i>
 y z </#list><#noparse>  
</#noparse>