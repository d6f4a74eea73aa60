-- ${"Monthly revenue report for all regions and customers"?truncate(30)}
SELECT '${since[0..3]}' AS year, '${since[5..6]}' AS month,
       ${regions[0..*2]?join(" || ',' || ")} AS first_regions
