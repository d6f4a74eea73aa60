a
  <#nt>
b
