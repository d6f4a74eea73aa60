a
  x <#rt>
  <#lt>  y
b
