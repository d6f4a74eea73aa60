<#nt><#if true>


  <#list 1..2 as i><#if true>ax

  
</#if>
    ${1}</#list>x
</#if><#nt><#nt><#if false><#if true><#t>
</#if><#else><#if true><#-- c -->${1}</#if><#t> c<#assign v = 1></#if>