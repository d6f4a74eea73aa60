<table>
<#list rows as r>
  <tr><td>${r.name}</td><td>${r.total}</td></tr>
</#list>
</table>
