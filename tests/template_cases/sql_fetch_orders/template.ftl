SELECT
  order_id,
  customer_id,
  total_amount,
  order_date,
  status
FROM orders
WHERE order_date BETWEEN '${start_date}' AND '${end_date}'
<#if !include_cancelled>
  AND status <> 'CANCELLED'
</#if>
