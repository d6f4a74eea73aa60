<#-- Template: daily revenue
     Params: day (DATE), currency (STRING) -->
-- generated
SELECT SUM(amount) AS revenue -- in ${currency}
FROM payments
WHERE paid_on = DATE '${day}'
