<#macro m><#if false><#if true>b   
</#if><#else><#lt></#if><#attempt><#assign v = 1><#recover>b 
  
<#assign v = 1><#nt></#attempt> y z ${1}<#list 1..2 as i><#attempt>

b  y z <#recover> y z  c</#attempt><#list 1..2 as i>
  </#list> c<#t></#list></#macro><#assign v = 1><#nt> c	<@m/><#if true>

<#compress> c<#-- c --><#list 1..2 as i>  x
</#list><#list 1..2 as i>	  



</#list><#-- c --></#compress></#if><#attempt><#compress><#if false> cx
<#else>	b 

b   
</#if></#compress><#nt><#attempt><#nt><#assign v = 1><#if false>  
   cb <#else>

 c</#if><#if true>
  ax
x
</#if><#-- c --><#recover>x
  </#attempt>b  c<#recover><#if true><#if false> c  

  <#else>a	 c c  
</#if><#noparse>
  </#noparse>a<#compress> y z a</#compress><#attempt>
<#recover> y z b </#attempt></#if><#-- c --><#compress><#compress>x
a	
</#compress><#assign v = 1></#compress><#noparse>
</#noparse></#attempt><#assign v = 1>x
