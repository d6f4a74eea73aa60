x<#compress>   
   </#compress>y