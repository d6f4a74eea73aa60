-- usage: <#noparse>${table}</#noparse>
SELECT 1
