<#macro m><#if true>

x
<#noparse>
</#noparse></#if><#attempt>${1}<#if false>


  
<#else>	

    
</#if><#recover><#rt>
</#attempt>x
<#rt></#macro>  
<#t>  <@m/> y z   	<#if true>
  <#noparse>  
</#noparse><#compress>${1}<#compress>x


</#compress><#if true>  

a</#if></#compress><#noparse>  
</#noparse>

</#if>${1}