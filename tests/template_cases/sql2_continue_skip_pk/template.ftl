UPDATE ${table} SET
<#list cols as c>
<#if c.pk><#continue></#if>
  ${c.name} = :${c.name}<#sep>,</#sep>
</#list>
WHERE id = :id
