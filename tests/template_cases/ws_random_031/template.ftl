<#macro m>
</#macro>x
<#if true>  
<#if true> y z <#if true>

</#if><#nt> c<#list 1..2 as i>a</#list></#if></#if><#list 1..2 as i>	<#nt></#list><@m/>
  	<#list 1..2 as i>


  <#if true><#lt>
  <#if true>b ab a</#if>x
<#-- c --></#if><#noparse> c</#noparse></#list>
x
