a
<#if true><#nt>
  x
</#if>
b
