<#macro m><#if true><#if false>
a
<#else>	</#if></#if><#if true><#if true>	</#if><#compress>  
</#compress><#list 1..2 as i>a</#list></#if></#macro>
  <@m/><#noparse>b </#noparse><#if true><#compress><#noparse> c</#noparse>  
</#compress></#if><#-- c -->