<#macro m>  
<#assign v = 1><#noparse>  
</#noparse></#macro><#-- c -->

<@m/><#list 1..2 as i>b </#list>
  <#if false>
  
 y z <#else><#if true><#attempt>
 c cb <#recover> c</#attempt><#if true>
</#if><#attempt>  <#recover> y z </#attempt></#if>
<#list 1..2 as i>  
<#-- c -->
   y z </#list><#assign v = 1></#if>${1}<#nt>