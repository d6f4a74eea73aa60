a
  <#t>x  
b
