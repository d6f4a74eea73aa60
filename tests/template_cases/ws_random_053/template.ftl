<#rt>${1}<#if false><#list 1..2 as i><#if true>
  
</#if></#list>
  <#list 1..2 as i>x
</#list><#noparse>  
</#noparse>x
<#else>	  
<#t>  
</#if><#rt>