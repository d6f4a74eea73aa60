
  
<#assign v = 1><#if true>a<#-- c --><#if true><#if true>

 y z   
</#if></#if><#noparse>a</#noparse></#if>	