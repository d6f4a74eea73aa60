<#macro m>x
<#list 1..2 as i>
${1}</#list></#macro><#assign v = 1>	<#t><#compress><#-- c --><#if true><#compress>  
  </#compress><#assign v = 1><#lt></#if></#compress>${1}<@m/><#assign v = 1>  <#if false><#list 1..2 as i><#attempt>  
<#recover>
 c</#attempt></#list><#list 1..2 as i><#-- c --><#if true>a y z 
    </#if>x
<#assign v = 1><#if true>


</#if></#list>${1}  
  
<#else>a</#if><#compress><#if false> c<#list 1..2 as i>a  


</#list>
  <#nt><#else>b 	b x
<#noparse>
  </#noparse></#if><#lt><#assign v = 1> y z  y z </#compress>