a
		<#t>x		
b
