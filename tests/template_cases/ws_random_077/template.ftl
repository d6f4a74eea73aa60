<#compress><#-- c --><#attempt><#list 1..2 as i> y z 	

ax
</#list><#assign v = 1><#if true>
</#if><#-- c --><#recover><#if true> y z 
b </#if>	<#if false>
  
    

  <#else> y z  y z  y z  c</#if>  
</#attempt></#compress>