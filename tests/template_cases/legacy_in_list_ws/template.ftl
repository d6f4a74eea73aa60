<#list [1.25, 2.5] as n>
  #{n; m1M1}
</#list>
