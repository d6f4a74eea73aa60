<#compress><#rt><#if true><#if false> y z x
x
<#else>
  </#if>${1}</#if><#compress><#t></#compress><#if true><#noparse>
  </#noparse><#lt><#rt>  
</#if><#attempt>
<#assign v = 1><#attempt>

	
  <#recover>x
b   
 c</#attempt><#recover><#if false>
<#else>  
    </#if></#attempt></#compress>
<#compress><#noparse>  
</#noparse>b </#compress>