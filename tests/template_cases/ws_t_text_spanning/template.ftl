a
  x
  y <#t>
z
