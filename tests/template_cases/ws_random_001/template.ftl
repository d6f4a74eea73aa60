<#macro m><#list 1..2 as i>
${1}<#attempt>b a	
<#recover>

 y z </#attempt><#rt>${1}</#list><#noparse>	</#noparse>${1}</#macro> y z <@m/><#assign v = 1><#attempt><#list 1..2 as i>b <#noparse> y z </#noparse>b b <#if true>b    c  

  </#if></#list><#attempt><#if true>     y z </#if><#lt><#list 1..2 as i>
</#list><#t><#recover><#list 1..2 as i>b 	

  x
</#list>
<#if true>
</#if>${1}<#noparse>
  </#noparse></#attempt><#recover><#if true>  
<#assign v = 1><#if false> y z x
	 c c<#else>  

  
</#if><#t><#compress>  
</#compress></#if>
<#list 1..2 as i><#if true>  
b  ca</#if><#noparse>
</#noparse><#lt></#list><#-- c -->  
</#attempt>