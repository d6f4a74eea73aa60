<#list texts as t><#list 0..25 as n>${n}:[${t?truncate(n, "...")}]
</#list></#list>