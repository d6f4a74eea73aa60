 	<#t>x
