<#macro m><#lt>x
<#nt></#macro><#if true><#if true>${1}</#if><#lt><#if false><#assign v = 1><#list 1..2 as i>	</#list><#noparse>
</#noparse>
<#else><#list 1..2 as i> y z  c  a</#list>

  
</#if></#if><#-- c --> y z  y z <@m/>  