<#attempt>	<#noparse> c</#noparse><#recover><#compress><#attempt>
x
<#recover>a  </#attempt></#compress><#if true>

<#if true>




  x
</#if><#compress> y z 
  </#compress></#if>  <#assign v = 1></#attempt><#t>