<#compress>
  SELECT   a,

     b
  FROM    t
</#compress>
