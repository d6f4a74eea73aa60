a
  x <#t>