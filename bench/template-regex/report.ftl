<#-- Third template bench (issue 14): the regular-expression built-ins over a realistic model:
     identifiers from labels, filters, splitting, extraction with groups, flags. -->
<#assign ident = r"[^a-z0-9]+">
-- ${title?replace(r"\s+", " ", "r")?truncate(60)}
-- schema ${table?keep_before(r"\.", "r")}, table ${table?keep_after_last(r"\.", "r")}
SELECT
<#list columns as c>
  <#assign alias = c.label?lower_case?replace(ident, "_", "r")?replace(r"^_+|_+$", "", "r")>
  ${c.name} AS ${alias}<#sep>,</#sep><#if c.format?matches(r"[#0,.]+%?")> -- number ${c.format}</#if><#if c.label?matches(r".*\(.*\).*")> -- qualified</#if>
</#list>
FROM ${table}
WHERE region IN (<#list regions?filter(r -> r?matches(r"(eu|us)-.*", "i")) as r>'${r?upper_case}'<#sep>, </#sep></#list>)
<#list rows as r>
-- ${r.id?c} ${r.region?replace(r"(?i)^(eu|us)-(\w+)$", "$1/$2", "r")?upper_case}: <#list r.tags?split(r"\s*,\s*", "r") as t>${t?ensure_starts_with(r"#", "#")}<#sep> </#sep></#list><#if r.email?matches(r"[\w.+-]+@[\w-]+(\.[\w-]+)+")> mail=${r.email?keep_after("@")?lower_case}</#if> note="${r.note?trim?replace(r"[\t ]+", " ", "r")?replace(r";\s*", " | ", "r")}"<#list r.note?matches(r"(\w+)=(\w+)") as kv> ${kv?groups[1]}:${kv?groups[2]}</#list>
</#list>
-- codes: <#list codes?matches(r"([A-Z]{2})-(\d+)") as m>${m?groups[1]}${m?groups[2]?left_pad(4, "0")}<#sep>,</#sep></#list>
-- codes (i): ${codes?replace(r"\b([a-z]{2})-(\d+)\b", "$2.$1", "ri")}
-- first two: ${codes?replace(r"-\d+", "", "rf")} / ${codes?split(" ", "r")[0..1]?join("+")}
