b 
<#if true><#t></#if>