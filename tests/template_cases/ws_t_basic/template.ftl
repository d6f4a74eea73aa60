a
  <#t>x  
b
