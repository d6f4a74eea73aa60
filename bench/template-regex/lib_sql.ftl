<#macro each items><#list items as it><#nested it, it?index, it?is_last></#list></#macro>
<#function quote s><#return "'" + s?replace("'", "''") + "'"></#function>
<#function cast c><#return (c.type == "DECIMAL")?then("CAST(" + c.name + " AS NUMERIC(18, 2))", c.name)></#function>
