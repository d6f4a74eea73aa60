<#macro m><#if false><#rt>  <#if false>a<#else>a

  
</#if>x
<#if true>b x
</#if><#else><#noparse>b </#noparse>  <#if false>  
<#else>
</#if><#compress>  
x

  
  </#compress></#if></#macro>
  <@m/>  
<#if false>  <#-- c --><#else>${1} y z </#if>