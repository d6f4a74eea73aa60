WITH base AS (
  SELECT * FROM events
  WHERE <@f.between col="ts" lo=from hi=to/>
)
SELECT
<#list dims as d>
  ${d},
</#list>
  COUNT(*) AS n
FROM base
GROUP BY <#list dims as d>${d?index + 1}<#sep>, </#list>
