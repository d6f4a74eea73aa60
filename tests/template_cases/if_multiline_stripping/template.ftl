start
<#if active>
  inside
</#if>
end
