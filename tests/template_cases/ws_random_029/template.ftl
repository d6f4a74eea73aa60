${1}<#list 1..2 as i>  </#list><#if true>a</#if><#if true><#if false><#if true>  
  
x
	 y z </#if>

<#if true>
  
</#if><#-- c --><#else><#noparse>
</#noparse>
<#attempt>  	a

<#recover>x

  b    y z </#attempt><#if true> c


	</#if></#if><#if true>
  <#compress> y z 
a

</#compress><#if false>  
x
  <#else>
  	  b x
</#if><#attempt> y z <#recover>
ax
</#attempt></#if> y z ${1}</#if><#noparse>

</#noparse>