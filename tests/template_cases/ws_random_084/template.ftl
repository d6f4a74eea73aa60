<#if true><#nt>x
a<#-- c -->${1}</#if><#nt> c<#if true><#t><#list 1..2 as i><#if true>  
</#if> c</#list></#if><#noparse>

</#noparse>