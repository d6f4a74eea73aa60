<#compress>a 

 b
</#compress>