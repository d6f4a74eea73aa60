<#list 1..2 as i><#list 1..2 as i>b <#noparse>x
</#noparse> y z </#list>
<#compress> y z <#t>	<#attempt>

b 

<#recover>
 c y z   
</#attempt><#if true>  
a</#if></#compress> y z <#compress><#lt><#-- c --></#compress></#list><#assign v = 1> y z <#if false><#lt><#t><#list 1..2 as i><#rt>
b </#list>x


<#else><#t></#if>