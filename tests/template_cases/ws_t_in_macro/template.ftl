<#macro m>
  [<#t>
  ${1}<#t>
  ]<#t>
</#macro>
<@m/>
<@m/>
