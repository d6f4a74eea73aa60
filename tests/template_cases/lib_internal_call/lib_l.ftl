<#macro inner>I</#macro>
<#macro outer>[<@inner/>]</#macro>
