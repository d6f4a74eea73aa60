<#attempt> y z <#list 1..2 as i><#list 1..2 as i>

  
b </#list><#-- c --><#compress>

aa
  </#compress>b <#compress> c
b 
  
</#compress></#list><#recover>	  

  <#if true>

ax
</#if><#attempt>x
<#assign v = 1><#noparse> y z </#noparse>x
<#recover><#if true>



</#if></#attempt></#attempt>${1}<#assign v = 1><#lt><#t>