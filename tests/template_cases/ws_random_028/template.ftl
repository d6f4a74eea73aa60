<#if true>a<#list 1..2 as i> c</#list><#assign v = 1><#if false>x
<#rt>

<#assign v = 1><#if true> y z   
  
  
</#if><#else> y z ${1}${1}${1}<#compress>	
   c</#compress></#if></#if>