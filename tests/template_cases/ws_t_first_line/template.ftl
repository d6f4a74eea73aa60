  x <#t>  
y
