<#macro between col lo hi>${col} >= '${lo}' AND ${col} < '${hi}'</#macro>
