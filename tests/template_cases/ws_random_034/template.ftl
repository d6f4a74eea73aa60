b <#if true><#if true><#if true>
  
</#if><#nt><#if false> y z 
  <#else>b </#if>x
</#if><#list 1..2 as i><#attempt>

	
<#recover>


 ca y z </#attempt></#list>	  
</#if>