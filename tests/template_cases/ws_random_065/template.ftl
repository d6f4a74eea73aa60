<#list 1..2 as i><#attempt><#list 1..2 as i> y z   
  

	</#list><#recover><#attempt>a<#recover>x
</#attempt>${1} y z <#list 1..2 as i>  	

	</#list>${1}</#attempt><#t>
  </#list>