<#compress>
SELECT
<#list ["a","b"] as c>
    ${c},
</#list>
    1
FROM t
</#compress>
