<#function qi name><#return '"' + name?replace('"', '""') + '"'></#function>
SELECT ${qi("Order Id")}, ${qi(col)} FROM ${qi(table)}
