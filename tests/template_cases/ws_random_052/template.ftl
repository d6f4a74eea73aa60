${1}<#nt><#if false>${1}<#list 1..2 as i>  
<#noparse>
  </#noparse><#if false>a<#else> y z </#if><#if false>
    

   c<#else>
  x
</#if>
</#list><#lt><#else><#if true><#list 1..2 as i> c  




</#list><#lt>${1}<#if false> c  
a

<#else>
</#if></#if></#if>  