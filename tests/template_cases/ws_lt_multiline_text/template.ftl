a
   b
   <#lt>c
