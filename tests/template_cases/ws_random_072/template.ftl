<#macro m><#compress>x
</#compress><#if false><#t><#attempt>  

<#recover>
  	</#attempt><#else>
<#if true>
    
</#if></#if>x
<#if false><#lt><#compress>x

  	  
</#compress><#noparse>

</#noparse> c<#else>	<#compress>b  c y z </#compress><#noparse>	</#noparse><#list 1..2 as i>b x
  </#list></#if></#macro>
  <@m/>${1}<#attempt><#assign v = 1>    
<#recover>
  ${1}<#list 1..2 as i>b <#if false>a  
<#else>x
</#if></#list></#attempt><#noparse>  
</#noparse><#-- c --><#attempt><#compress>b x
</#compress><#attempt><#compress>b   
  </#compress><#lt><#t>  <#recover><#compress>

  

</#compress></#attempt><#recover><#attempt><#list 1..2 as i>
</#list><#recover>	</#attempt><#if true><#assign v = 1><#noparse>	</#noparse><#list 1..2 as i>
 ca
a</#list></#if><#if true><#compress> y z a</#compress>
<#if false>x

x
 c	<#else>  

b  cb </#if>  
<#if true>  
</#if></#if><#compress><#list 1..2 as i>a
</#list></#compress></#attempt>