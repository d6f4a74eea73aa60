<#macro m>x
  
<#noparse>
</#noparse><#if true><#compress>	 c</#compress>${1}<#compress>  
  

b </#compress><#attempt> c<#recover>

  </#attempt>${1}</#if></#macro>b <#if false><#-- c -->
  b <#else>a<#compress><#noparse> y z </#noparse>  
<#if true>
  	 y z 
  </#if><#list 1..2 as i> y z   


</#list><#-- c --></#compress></#if>${1}${1}<@m/><#t>