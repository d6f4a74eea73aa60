
<#list 1..2 as i> y z <#if true>${1}<#compress> c
  
</#compress><#if true>	</#if>${1}</#if></#list><#if true>x
<#attempt> c
<#recover>    	</#attempt></#if><#if false><#list 1..2 as i><#rt><#list 1..2 as i>  


  
</#list>x
<#noparse>b </#noparse></#list>  
  <#list 1..2 as i>
a<#noparse> c</#noparse></#list><#else><#if false> c<#list 1..2 as i> y z  y z b </#list>x
<#else><#if true>  



  </#if> cx
</#if></#if><#if true><#t>x
<#list 1..2 as i>b 

<#list 1..2 as i>
 y z 
  </#list> c</#list></#if>