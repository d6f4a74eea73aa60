a
   x <#rt>  
b
