size=${wide?size}
<#list wide?keys as k>${k}<#sep>,</#list>
k01=${wide.k01} k03=${wide.k03} k24=${wide["k24"]} nested=${wide.nested.a}
k07=${wide.k07!"missing"} has=${(wide.k07??)?c} k99=${wide.k99!"none"}
<#assign merged = wide + {"k01": "over", "extra": 1}>merged=${merged?size} ${merged.k01} ${merged.extra}
<#list wide as k, v><#if v?? && v?is_number && v gt 20>${k}=${v} </#if></#list>
