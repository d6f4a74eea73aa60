<#list 1..2 as i>x
a<#compress>${1}</#compress>  </#list><#compress><#noparse>  
</#noparse><#if true><#list 1..2 as i> y z 
  </#list><#if true>a

</#if><#if true>  

   y z 
 y z </#if>  
</#if><#attempt><#nt>
<#if false>  <#else> c

</#if><#list 1..2 as i> cb b 
</#list><#t><#recover>


</#attempt></#compress><#-- c --><#if true> c</#if>