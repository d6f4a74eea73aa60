  b <#if true>
  <#if false>x
<#assign v = 1><#assign v = 1><#list 1..2 as i>
      
 c</#list><#else><#list 1..2 as i>
a

	</#list></#if><#if true><#-- c --><#if true>b 		</#if><#if false>b 

 c  
<#else>

</#if>

<#t></#if>
${1}</#if>