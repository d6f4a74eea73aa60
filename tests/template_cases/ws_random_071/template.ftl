<#macro m>
x
<#noparse>x
</#noparse><#-- c --><#list 1..2 as i><#-- c --><#rt></#list></#macro><#if true><#if true><#lt>a

</#if> y z </#if><#list 1..2 as i><#compress><#t></#compress></#list>  


<#lt><@m/> c