<#-- c -->	  
b <#list 1..2 as i><#compress><#noparse>  </#noparse><#list 1..2 as i> y z 
   c
b </#list>  <#if true>

a  </#if>	</#compress><#list 1..2 as i>  
	 y z <#rt></#list><#if true><#-- c --></#if>x
</#list>