a
  x <#t> y <#t>  
b
