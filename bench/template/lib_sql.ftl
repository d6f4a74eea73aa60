<#-- SQL helpers imported by report.ftl under the alias "sql". -->
<#function quote s>
  <#return "'" + s?replace("'", "''") + "'">
</#function>

<#function ident name>
  <#return '"' + name?lower_case + '"'>
</#function>

<#macro select_list cols prefix>
<#list cols as c>
    ${prefix}.${ident(c.name)}<#if c.alias??> AS ${c.alias}</#if><#sep>,</#sep>
</#list>
</#macro>

<#macro predicate f alias>
<#switch f.op>
  <#case "in">${alias}.${ident(f.column)} IN (<#list f.values as v><#if v?is_number>${v?c}<#else>${quote(v)}</#if><#sep>, </#list>)<#break>
  <#case "between">${alias}.${ident(f.column)} BETWEEN ${f.low?c} AND ${f.high?c}<#break>
  <#case "like">${alias}.${ident(f.column)} LIKE ${quote(f.pattern)}<#break>
  <#default>${alias}.${ident(f.column)} ${f.op} <#if f.value?is_number>${f.value?c}<#elseif f.value?is_boolean>${f.value?string("TRUE", "FALSE")}<#else>${quote(f.value)}</#if><#break>
</#switch>
</#macro>

<#macro aggregate m>
<#if m.fn == "count_distinct">COUNT(DISTINCT ${m.column})<#elseif m.fn == "ratio">ROUND(SUM(${m.numerator})::numeric / NULLIF(SUM(${m.denominator}), 0), ${m.scale!2})<#else>${m.fn?upper_case}(${m.column})</#if> AS ${m.name}</#macro>
