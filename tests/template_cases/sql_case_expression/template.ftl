SELECT
  CASE
<#list buckets as b>
    WHEN amount < ${b.max} THEN '${b.name}'
</#list>
    ELSE 'other'
  END AS bucket
FROM payments
