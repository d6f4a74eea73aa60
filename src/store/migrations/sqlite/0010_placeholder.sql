-- placeholder 0010: the lead drops this commit; the real 0010 lands from another branch.
SELECT 1;
