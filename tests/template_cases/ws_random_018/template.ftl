<#assign v = 1><#rt>  <#if false><#if true><#assign v = 1>${1}a<#list 1..2 as i>b  c</#list>  </#if>${1}<#assign v = 1><#-- c --><#if true><#nt><#-- c -->b ${1}<#attempt> y z 
 c<#recover>b 	</#attempt></#if><#else><#if false>
<#if false> y z 
   y z 
<#else>

 c
  
  
</#if><#list 1..2 as i> c
 y z 

a</#list><#list 1..2 as i>

  </#list><#if true>	
   c</#if><#else><#lt><#rt><#nt><#noparse>
  </#noparse></#if></#if>