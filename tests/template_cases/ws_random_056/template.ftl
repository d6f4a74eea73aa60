<#compress><#if false><#list 1..2 as i>a c</#list><#lt><#else><#if true>x
	x
x
</#if> y z  y z <#-- c --></#if>



</#compress><#list 1..2 as i>

${1}</#list><#list 1..2 as i>${1}<#attempt><#attempt>x
<#recover>a c  
  </#attempt><#if true>  
</#if>   c<#recover><#if false>b 
	<#else>x



 y z </#if></#attempt></#list>b 