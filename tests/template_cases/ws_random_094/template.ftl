<#compress>  
  </#compress><#list 1..2 as i><#-- c --><#lt><#noparse>x
</#noparse></#list><#lt>
