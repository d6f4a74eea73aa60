<#attempt><#if true>
  <#list 1..2 as i>   c</#list><#nt></#if><#rt> y z <#recover>
<#assign v = 1>${1}
  <#-- c --></#attempt><#if true>x
 y z <#t></#if>${1}<#if true>${1}</#if>