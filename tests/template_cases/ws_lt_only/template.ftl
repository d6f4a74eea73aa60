a
  <#lt>
b
