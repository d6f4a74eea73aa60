<#attempt> y z <#if false><#if true>

 y z 	 y z 
</#if><#else><#noparse>  
</#noparse><#list 1..2 as i>
b 
x
b </#list>
  </#if><#recover><#nt></#attempt>

<#if false><#assign v = 1><#attempt>b <#noparse>
</#noparse>

<#recover>

</#attempt>    
	<#else>${1}<#compress><#nt>x
<#compress>x
  

  b 
</#compress>

<#noparse>

</#noparse></#compress><#if false><#if true>b  y z   a c</#if>  
<#if false>
<#else>
 c
  
</#if><#if true>
  
b     </#if>	<#else> y z </#if></#if><#t><#attempt><#compress>

<#nt><#noparse>b </#noparse><#list 1..2 as i>		
</#list>
</#compress><#-- c --><#compress><#nt><#assign v = 1>
</#compress><#list 1..2 as i> y z <#-- c --><#attempt>
<#recover>
  


</#attempt><#list 1..2 as i> y z </#list><#if false>
  

<#else>
   y z   
x
</#if></#list><#if true>ax
</#if><#recover>
   c<#lt>b <#rt></#attempt>