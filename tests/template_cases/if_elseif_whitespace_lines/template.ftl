<#if x == 1>
  one
<#elseif x == 2>
  two
<#else>
  other
</#if>
