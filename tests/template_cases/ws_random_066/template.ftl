x
<#if true><#nt>
${1}a
  </#if><#assign v = 1><#nt>