<#compress>
 a