<#list [1,2] as i>
  <#nt>${i}
</#list>
