a
  hello <#t>  
b
