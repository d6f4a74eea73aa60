<#-- Second template bench (issue 14): lambdas, lazy streams, slices, sort_by, compress and the
     white-space directives; no regular expressions (refused by the engine). -->
<#assign visible = columns?filter(c -> !c.hidden)>
<#assign numeric = visible?filter(c -> c.type == "INTEGER" || c.type == "DECIMAL")>
-- ${title?truncate(48)}
WITH base AS (
  SELECT
<@sql.each items=visible; c, i, last>
    ${sql.cast(c)} AS ${c.name}<#if !last>,</#if><#t>
    <#lt>  -- ${c.label[0..*12]}
</@sql.each>
  FROM ${table}
  WHERE region IN (${regions?map(r -> sql.quote(r))?join(", ")})
<#list visible?filter(c -> !c.nullable)?take_while(c -> c.weight < 9) as c>
    AND ${c.name} IS NOT NULL
</#list>
),
ranked AS (
  SELECT <#rt>
<#list numeric?sort_by("weight")?reverse?map(c -> c.name) as n>
  ${n}<#sep>, </#sep><#t>
</#list>

  FROM base
)
<#compress>
SELECT *
FROM   ranked
WHERE  ${numeric?map(c -> c.name + " > " + threshold?c)?join("\n  AND ")}
</#compress>

-- sample rows: ${rows?filter(r -> r.amount > threshold)?map(r -> r.id?c)?join(",")}
-- regions with vip: ${rows?filter(r -> r.tags?seq_contains("vip"))?map(r -> r.region)?join("|")}
-- first big: ${rows?filter(r -> r.amount > 400)?first.id!"none"}
-- dropped: ${rows?drop_while(r -> r.amount < 450)?size}
<#list rows?sort_by("amount")[0..*5] as r>
--   ${r.id?c}: ${r.amount?string("0.00")} ${r.region?lower_case}<#if r.tags?has_content> [${r.tags?join("/")}]</#if>
</#list>
