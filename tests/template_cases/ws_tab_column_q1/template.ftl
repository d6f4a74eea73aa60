  <#t>x
