<#assign sorted = ids?sort>
-- low: ${sorted?take_while(i -> i < 3)?join(",")}; high: ${sorted?drop_while(i -> i < 3)?join(",")}
