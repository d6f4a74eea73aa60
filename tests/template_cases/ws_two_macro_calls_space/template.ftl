<#macro m>M</#macro>
  <@m/> <@m/>
end
