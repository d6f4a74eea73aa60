<#macro a>A</#macro>

<#macro b>B</#macro>
<@a/><@b/>
