SELECT * FROM ${table} WHERE amount > #{min_amount; m2M2} AND ratio < #{0.12345; M3}
