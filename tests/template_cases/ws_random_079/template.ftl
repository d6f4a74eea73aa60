<#attempt> y z <#t><#if false> cb <#else> y z ${1}	
<#compress> cx
 y z 
	</#compress></#if><#recover> c<#rt>b  y z 
</#attempt><#noparse>  </#noparse>