<#list 1..months as m>
SELECT ${m} AS month, COUNT(*) FROM sales_${year}_${m?left_pad(2, "0")}<#sep>
UNION ALL
</#sep>
</#list>
