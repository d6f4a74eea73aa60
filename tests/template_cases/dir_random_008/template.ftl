<#function f n><#return n * 10></#function><#macro m k><#local a = k><#list 1..2 as j><#nested j, a></#list>${y!0} 
  <#list [4, 5] as i1><#global c = i1?counter><#global y = i1 * 2>
${3} </#list><#attempt>
  ${nope}<#recover>R</#attempt></#macro><#list (1..4)?filter(n -> n != 2) as i0><#if i0?index gt 2>
${y!0} <#switch y!0><#case 1>one<#case 2>two<#break><#default>d</#switch><#elseif i0?index == 1>E<#else>
  <#global c = (i0?has_next)?c></#if><@m (i0?has_next)?c; p, q>[${p}:${q!'-'}|
  
  ${i0} <#list (1..4)?filter(n -> n != 2) as i2><@m i2; p, q>[${p}:${q!'-'}|${1} ]</@m><#if i0 * 2 gt 3>${i2} ${x!0} ${f(2)} ${i0?counter} <#elseif f(2) == 1>E<#else>${5} ${4} </#if><#list 1..3 as i3>${i2 * 2} ${(i3?has_next)?c} ${f(0)} ${i3?index} </#list>
</#list>]</@m>${b!0} <#sep>,</#sep></#list>|${a!'na'} ${b!'nb'} ${x!'nx'}