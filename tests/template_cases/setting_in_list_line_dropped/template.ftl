<#list 1..2 as i>
  <#setting number_format="computer">
  ${i}
</#list>
