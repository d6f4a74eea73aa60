
a	<#lt>