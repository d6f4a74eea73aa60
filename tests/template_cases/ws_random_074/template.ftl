  <#if true>${1}<#nt><#compress>${1}<#assign v = 1></#compress>
  </#if><#compress>

</#compress><#if true><#list 1..2 as i><#attempt>
  x
	<#recover> y z    y z 
</#attempt></#list></#if><#if true>${1}

  
<#if true> y z 
  <#compress>x
</#compress><#if true> c	</#if></#if></#if>