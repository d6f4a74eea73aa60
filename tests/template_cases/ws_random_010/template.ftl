
  <#if true>

<#list 1..2 as i>
  <#if true> y z b </#if>
<#attempt> y z 		<#recover>
  

x
</#attempt>x
</#list></#if>x
<#if true>
<#compress><#list 1..2 as i> y z  y z 
</#list><#list 1..2 as i>b   
	 y z   </#list>
</#compress><#if true>x
<#attempt>a<#recover>ab  c y z 	</#attempt><#-- c --></#if><#-- c --><#if true><#if true>a    
  </#if></#if></#if><#t>