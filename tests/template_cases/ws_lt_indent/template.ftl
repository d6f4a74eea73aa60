x
      <#lt>  y
z
