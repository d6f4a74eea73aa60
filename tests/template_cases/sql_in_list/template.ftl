SELECT *
FROM orders
WHERE status IN (<#list statuses as s>'${s}'<#sep>, </#list>)
