<#macro window_sum column partition>
SUM(${column}) OVER (PARTITION BY ${partition})
</#macro>
WITH x AS (
  SELECT id, <@window_sum column="amount" partition="customer_id"/>  AS running
  FROM payments
)
SELECT * FROM x
