a<#if true>	<#t>x</#if>
