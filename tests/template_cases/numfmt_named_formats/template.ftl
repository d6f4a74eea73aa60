<#list [0, 1234.5, -1234.567, 0.005, 1000000, -0.5] as n>${n?string.currency}|${n?string("currency")}|${n?string.number}|${n?string.percent}|${n?string["#,##0.0"]}
</#list>