<#macro w>
[
<#nested>
]
</#macro>
<@w>
inner
</@w>
