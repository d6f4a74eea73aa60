-- 0013_membership_flags (PostgreSQL): capability is three additive flags on the membership
-- (auth.md §11A) instead of one ladder of roles, so "an author who also releases" and "someone
-- who only releases" are each one row. The old roles become the flags that keep exactly what
-- each member could do the day before: an author released, so author → author + promoter; a
-- workspace admin → author + admin (an admin releases by holding admin); viewer and operator
-- → no flag (viewers now execute, which is all an operator added).
--
-- Local accounts (auth.md §5A.4): a one-time password must be replaced before anything else,
-- and a session remembers whether a password or an identity provider opened it.
ALTER TABLE workspace_members ADD COLUMN author   INTEGER NOT NULL DEFAULT 0 CHECK (author IN (0, 1));
ALTER TABLE workspace_members ADD COLUMN promoter INTEGER NOT NULL DEFAULT 0 CHECK (promoter IN (0, 1));
ALTER TABLE workspace_members ADD COLUMN admin    INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1));
UPDATE workspace_members SET
  author   = CASE WHEN role IN ('author', 'ws_admin') THEN 1 ELSE 0 END,
  promoter = CASE WHEN role = 'author' THEN 1 ELSE 0 END,
  admin    = CASE WHEN role = 'ws_admin' THEN 1 ELSE 0 END;
ALTER TABLE workspace_members DROP COLUMN role;
ALTER TABLE workspace_members ADD CONSTRAINT workspace_members_admin_authors
  CHECK (admin = 0 OR author = 1);
CREATE INDEX workspace_members_admins_idx ON workspace_members (workspace_id) WHERE admin = 1;

ALTER TABLE users ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0
  CHECK (must_change_password IN (0, 1));
ALTER TABLE sessions ADD COLUMN amr TEXT NOT NULL DEFAULT 'pwd' CHECK (amr IN ('pwd', 'oidc'));
