SELECT <#rt>
  a,
  b
FROM t
