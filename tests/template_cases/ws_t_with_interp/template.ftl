<#list [1,2,3] as i>
  ${i},<#t>
</#list>
end
