
<#-- c --><#-- c --><#list 1..2 as i><#-- c -->
   c</#list>