<#attempt>	<#list 1..2 as i>
x
${1}</#list><#nt><#if true><#list 1..2 as i>b b </#list>  
<#if true>b </#if>b <#-- c --></#if><#recover><#t><#noparse>

</#noparse><#if false><#rt>	<#attempt>b  c

x
<#recover>b b x

  </#attempt><#else><#if false>
  
  
  

  <#else>

  
</#if><#list 1..2 as i>a
  x
  </#list><#assign v = 1>
  </#if></#attempt>