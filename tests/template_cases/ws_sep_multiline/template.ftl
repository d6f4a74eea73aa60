<#list [1,2,3] as i>
${i}<#sep>,
</#list>
