
 c<#assign v = 1><#compress> y z 
  <#if true><#if true>a

   c</#if><#if true>

a
a
  </#if><#-- c -->  
</#if><#t></#compress>