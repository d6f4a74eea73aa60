<#macro m>${1}
<#if true>  
  
  </#if>
</#macro><#if false>b 	<#else><#if true>a</#if><#list 1..2 as i>b <#-- c -->
  </#list>	</#if>${1}<#list 1..2 as i>  ${1}<#assign v = 1></#list><@m/><#rt>  
<#list 1..2 as i><#rt><#-- c --></#list><#compress><#-- c --></#compress>  
