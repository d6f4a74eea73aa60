-- placeholder 0008: the lead drops this commit; the real 0008 lands from another branch.
SELECT 1;
