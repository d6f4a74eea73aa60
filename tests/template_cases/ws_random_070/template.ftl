<#if true>a<#if true>${1}  
</#if>
x
<#compress><#if false>

 y z  c

  <#else>  
</#if>${1}x
<#lt>b </#compress></#if>
