INSERT INTO audit (id, label, amount) VALUES
<#list rows as r>
  (${r.id}, '${r.label?replace("'", "''")}', ${r.amount})<#sep>,</#sep>
</#list>;
