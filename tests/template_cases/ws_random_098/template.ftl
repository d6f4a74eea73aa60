<#if false>${1}  ${1}<#else><#rt>
<#list 1..2 as i>  
 y z </#list><#rt></#if><#attempt><#assign v = 1>${1}<#rt><#recover>
<#-- c --><#if true><#attempt>a   y z 


<#recover>	

 ca</#attempt><#lt></#if><#compress><#t>x
a c</#compress>

</#attempt>