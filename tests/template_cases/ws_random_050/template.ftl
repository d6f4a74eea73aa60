	<#attempt>b <#recover> y z <#noparse>  
</#noparse><#if true><#assign v = 1><#t></#if> y z a</#attempt>	a