a
   x <#lt>  
b
