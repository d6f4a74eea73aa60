<#list xs as x>
  <#if x gt 2><#rt>
    big
  </#if>
</#list>
