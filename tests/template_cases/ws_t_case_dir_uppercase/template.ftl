a
  x <#T>
b
