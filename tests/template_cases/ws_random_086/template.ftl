<#macro m><#list 1..2 as i>${1} y z </#list> y z 	<#if false><#-- c -->  

<#else><#if false> y z x
 y z 
  

<#else>
  
</#if><#if true> y z x
 y z 
  x
</#if></#if>a</#macro><#if true><#lt>
</#if>  
<#if true>


</#if>b   
<@m/><#if true>
</#if><#list 1..2 as i><#if true>${1}</#if><#list 1..2 as i><#assign v = 1><#t>

  </#list>${1}</#list>