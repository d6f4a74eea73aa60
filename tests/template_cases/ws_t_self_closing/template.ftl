a
  x <#t/>
b
