<#macro m><#if false>  
${1}
  <#t><#compress>x
 c</#compress><#else>x
b <#assign v = 1></#if></#macro><#-- c --><@m/><#if false>a<#else><#if false><#if true>


</#if><#else>
  x
<#list 1..2 as i> c

</#list>  </#if><#t><#if true>  <#noparse>

</#noparse></#if></#if><#list 1..2 as i><#-- c --></#list><#if true><#t><#nt><#attempt><#noparse>x
</#noparse> y z <#t><#recover><#t><#noparse>
</#noparse></#attempt></#if>${1}<#if false><#compress>x
<#noparse>  </#noparse><#if false>a<#else> y z  c</#if><#compress>


x

  </#compress></#compress><#else>x
<#-- c -->	
<#compress>
<#list 1..2 as i> c  
b </#list></#compress></#if>