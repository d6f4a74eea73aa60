<#macro m>  
 y z  c${1} y z </#macro><#-- c --><#if true><#assign v = 1>



  </#if><#assign v = 1><#assign v = 1><@m/>
<#list 1..2 as i><#list 1..2 as i>${1}
b <#if false>  
x
 y z <#else>b   
  
</#if><#assign v = 1></#list> y z a<#if true>
<#lt></#if></#list>x
  
<#list 1..2 as i><#-- c --><#noparse>  
</#noparse>
<#assign v = 1><#list 1..2 as i><#-- c -->  
<#noparse>a</#noparse><#noparse>a</#noparse><#noparse>a</#noparse></#list></#list>