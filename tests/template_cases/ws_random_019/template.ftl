<#macro m><#-- c --><#-- c --><#attempt>	<#recover><#lt>a y z <#if true>x


</#if><#assign v = 1></#attempt><#noparse>  </#noparse></#macro>
<@m/>x
<#assign v = 1>	