<#list [1,2] as i>
    <#t>${i}<#t>
</#list>
