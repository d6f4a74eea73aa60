<#-- Bench template: daily trip revenue per zone, with weather and a rolling window.
     Realistic shape for a pipeline node: CTEs, loops over columns and filters, conditionals,
     library macros and functions, number/boolean formatting and joins. -->
<#assign dims = group_by?join(", ")>
<#assign has_weather = include_weather!false>
-- ${report.title?cap_first} (generated for ${report.owner?upper_case}, v${report.version?c})
WITH trips AS (
  SELECT
<@sql.select_list cols=trip_columns prefix="t"/>
  FROM ${source.schema}.${source.table} t
  WHERE t.started_at >= ${sql.quote(window.from)}
    AND t.started_at < ${sql.quote(window.to)}
<#list filters as f>
    AND <@sql.predicate f=f alias="t"/>
</#list>
),
zones AS (
  SELECT z.zone_id, z.zone_name, z.borough
  FROM ${source.schema}.zones z
  WHERE z.borough IN (<#list boroughs as b>${sql.quote(b)}<#sep>, </#list>)
)<#if has_weather>,
weather AS (
  SELECT w.day, w.zone_id, w.precip_mm, w.temp_c
  FROM ${source.schema}.weather w
  WHERE w.precip_mm >= ${weather.min_precip_mm?c}
)</#if>,
daily AS (
  SELECT
    ${dims},
<#list metrics as m>
    <@sql.aggregate m=m/><#sep>,</#sep>
</#list>
  FROM trips t
  JOIN zones z ON z.zone_id = t.pickup_zone_id
  GROUP BY ${dims}
<#if having?has_content>
  HAVING <#list having as h>${h.expr} ${h.op} ${h.value?c}<#sep> AND </#list>
</#if>
)
SELECT
<#list group_by as g>
  d.${g},
</#list>
<#list metrics as m>
  d.${m.name}<#if m.rolling_days??>,
  AVG(d.${m.name}) OVER (PARTITION BY d.${group_by?last} ORDER BY d.${group_by?first}
    ROWS BETWEEN ${m.rolling_days - 1} PRECEDING AND CURRENT ROW) AS ${m.name}_rolling_${m.rolling_days}d</#if><#sep>,</#sep>
</#list>
<#if has_weather>
  , w.precip_mm
</#if>
FROM daily d
<#if has_weather>
LEFT JOIN weather w ON w.day = d.day AND w.zone_id = d.zone_id
</#if>
WHERE ${options.flagged?string("d.flagged", "NOT d.flagged")}
<#if options.exclude_zero>
  AND d.trips > 0
</#if>
ORDER BY <#list order_by as o>${o.column} ${o.direction?upper_case}<#sep>, </#list>
LIMIT ${limit?c}
