<#list 1..3 as i>
  <#if i == 2>
    <#continue>
  </#if>
  row ${i}
</#list>
