<#macro m>
<#compress>
   ${1}   ${2}
</#compress>
</#macro>
<@m/>|<@m/>