SELECT *
FROM customers
WHERE 1 = 1
<#if region??>
  AND region = '${region}'
</#if>
<#if min_total gt 0>
  AND lifetime_value >= ${min_total}
</#if>
