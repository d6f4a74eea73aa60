<#list 1..2 as i><#if true>b </#if></#list> c<#list 1..2 as i>x
a<#assign v = 1></#list>