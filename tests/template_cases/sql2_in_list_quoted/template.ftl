SELECT * FROM ${table}
WHERE region IN (${regions?map(r -> "'" + r?replace("'", "''") + "'")?join(", ")})
  AND id IN (${ids?sort?map(i -> i?c)?join(", ")})
