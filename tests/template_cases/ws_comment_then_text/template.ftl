<#if true>
</#if> <#-- x
 y --> 
D
