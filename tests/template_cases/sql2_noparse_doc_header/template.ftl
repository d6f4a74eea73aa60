<#noparse>
-- Parameters: ${table} is interpolated, :since is bound.
</#noparse>
SELECT * FROM ${table} WHERE created_at >= :since
