		<#compress>${1}<#list 1..2 as i><#compress>  





</#compress>  
<#-- c -->	<#list 1..2 as i>
x


  
</#list></#list><#assign v = 1><#t>a</#compress>