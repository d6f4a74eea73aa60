a <#rt>
   b
   c
