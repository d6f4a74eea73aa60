
<#attempt><#if false><#assign v = 1><#else><#noparse>  </#noparse> y z <#if false> y z 	
  <#else>

b 
  a</#if><#if false> c
    <#else> y z 

	
  b </#if></#if>a<#recover><#lt><#t><#compress><#list 1..2 as i>

</#list><#list 1..2 as i> y z  c</#list> c<#rt></#compress><#compress><#if false>

	
 c<#else>   c  
</#if></#compress><#if true><#list 1..2 as i>x
  	 c</#list>
  <#nt><#list 1..2 as i>  


</#list>x
</#if></#attempt><#assign v = 1><#noparse>

</#noparse><#assign v = 1>