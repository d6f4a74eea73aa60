<#macro each_col cols><#list cols as c><#nested c.name, c?is_last, c.pk></#list></#macro>
CREATE TABLE ${table}_copy (
<@each_col cols=cols; name, last, pk>
  ${name} TEXT<#if pk> PRIMARY KEY</#if><#if !last>,</#if>
</@each_col>
);
