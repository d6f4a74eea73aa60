-- 0013_membership_flags (SQLite): capability is three additive flags on the membership
-- (auth.md §11A) instead of one ladder of roles, so "an author who also releases" and "someone
-- who only releases" are each one row. The old roles become the flags that keep exactly what
-- each member could do the day before: an author released, so author → author + promoter; a
-- workspace admin → author + admin (an admin releases by holding admin); viewer and operator
-- → no flag (viewers now execute, which is all an operator added). SQLite cannot drop a column
-- that a CHECK names, so the table is rebuilt; kept in step with postgres/0013.
--
-- Local accounts (auth.md §5A.4): a one-time password must be replaced before anything else,
-- and a session remembers whether a password or an identity provider opened it.
CREATE TABLE workspace_members_flags (
  workspace_id TEXT    NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  user_id      TEXT    NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  joined_at_ms BIGINT  NOT NULL,
  author       INTEGER NOT NULL DEFAULT 0 CHECK (author IN (0, 1)),
  promoter     INTEGER NOT NULL DEFAULT 0 CHECK (promoter IN (0, 1)),
  admin        INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
  PRIMARY KEY (workspace_id, user_id),
  CONSTRAINT workspace_members_admin_authors CHECK (admin = 0 OR author = 1)
);
INSERT INTO workspace_members_flags (workspace_id, user_id, joined_at_ms, author, promoter, admin)
  SELECT workspace_id, user_id, joined_at_ms,
         CASE WHEN role IN ('author', 'ws_admin') THEN 1 ELSE 0 END,
         CASE WHEN role = 'author' THEN 1 ELSE 0 END,
         CASE WHEN role = 'ws_admin' THEN 1 ELSE 0 END
  FROM workspace_members;
DROP TABLE workspace_members;
ALTER TABLE workspace_members_flags RENAME TO workspace_members;
CREATE INDEX workspace_members_user_idx ON workspace_members (user_id);
CREATE INDEX workspace_members_admins_idx ON workspace_members (workspace_id) WHERE admin = 1;

ALTER TABLE users ADD COLUMN must_change_password INTEGER NOT NULL DEFAULT 0
  CHECK (must_change_password IN (0, 1));
ALTER TABLE sessions ADD COLUMN amr TEXT NOT NULL DEFAULT 'pwd' CHECK (amr IN ('pwd', 'oidc'));
