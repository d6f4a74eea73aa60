SELECT * FROM ${table}
<#attempt>
WHERE created_at >= DATE '${since?keep_before("T")}' AND shard = ${shard?c}
<#recover>
WHERE created_at >= DATE '${since}'
</#attempt>
LIMIT ${limit?c}
