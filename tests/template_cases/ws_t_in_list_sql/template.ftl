SELECT
<#list ["a","b","c"] as c>
    ${c}<#sep>,</#sep><#t>
</#list>
FROM t
