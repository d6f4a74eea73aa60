	<#t>x
