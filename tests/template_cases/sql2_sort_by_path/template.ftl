<#assign rows = [{"r": {"name": "beta"}, "v": 2}, {"r": {"name": "Alpha"}, "v": 1}, {"r": {"name": "alpha"}, "v": 3}]>
<#list rows?sort_by(["r", "name"]) as row>
SELECT ${row.v} AS v, '${row.r.name}' AS name<#sep> UNION ALL</#sep>
</#list>
