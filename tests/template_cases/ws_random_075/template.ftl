<#macro m>  
</#macro><#attempt>	<#t><#recover>
  <#if true><#assign v = 1> y z </#if><#rt></#attempt><#if false>

<#compress>x


<#rt>  </#compress><#noparse>
</#noparse><#else><#assign v = 1></#if><@m/>a<#assign v = 1>