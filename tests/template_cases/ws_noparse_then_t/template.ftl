<#noparse>
  raw ${x}
</#noparse><#t>
after
