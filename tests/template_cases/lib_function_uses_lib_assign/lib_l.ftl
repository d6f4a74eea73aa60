<#assign prefix = 'P_'>
<#function f><#return prefix + 'x'></#function>
