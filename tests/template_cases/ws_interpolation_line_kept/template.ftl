<#assign x=1>
  ${x}
<#if true>
</#if>
