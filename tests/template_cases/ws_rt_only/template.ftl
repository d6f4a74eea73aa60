a
  <#rt>
b
