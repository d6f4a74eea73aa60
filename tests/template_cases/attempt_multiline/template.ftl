x
<#attempt>
  ${missing}
<#recover>
  default
</#attempt>
y
