a
  <#t>  hello  
b
