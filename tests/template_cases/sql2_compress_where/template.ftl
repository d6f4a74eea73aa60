<#compress>
SELECT *
FROM   ${table}
WHERE  1 = 1
<#if min_amount??>
  AND amount >= ${min_amount?c}
</#if>
<#if !flags.include_refunds>
  AND kind <> 'refund'
</#if>
</#compress>
