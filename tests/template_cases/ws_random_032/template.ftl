
<#list 1..2 as i><#if true> c</#if><#nt></#list><#rt><#if false><#nt><#compress>
<#noparse> y z </#noparse><#if true> c cb </#if></#compress><#compress><#if true>  
  
  
</#if></#compress><#if false>  
<#nt><#if true>	</#if><#if false>	
  x
<#else>

x
 c</#if><#if true>
 c c</#if><#else>x
</#if><#attempt><#nt><#list 1..2 as i>  x
</#list><#assign v = 1><#nt> c<#recover><#-- c --><#noparse>

</#noparse><#attempt>x
   y z 
<#recover> c   y z 
    
</#attempt><#compress> y z </#compress></#attempt><#else>
${1}</#if><#t>