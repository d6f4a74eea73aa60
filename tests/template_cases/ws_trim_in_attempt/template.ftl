<#attempt>
  a <#t>
  ${x}
<#recover>
  b <#t>
</#attempt>
end
