<#if true><#list 1..2 as i><#assign v = 1><#lt>
  <#nt><#-- c --></#list></#if><#list 1..2 as i>  
</#list><#assign v = 1><#compress><#t>${1}${1}  
  </#compress>