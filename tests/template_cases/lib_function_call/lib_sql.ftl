<#function q s><#return "'" + s?replace("'", "''") + "'"></#function>
<#function ident s><#return '"' + s + '"'></#function>
