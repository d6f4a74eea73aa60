SELECT * FROM t
<#attempt>
WHERE id IN (${ids?join(", ")})
<#recover>
</#attempt>
