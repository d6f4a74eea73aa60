-- 0015_workspace_invitations: a membership waiting for its person (auth.md §4.6). A workspace
-- admin adds bob@company.com before Bob has ever signed in; the row is keyed by the
-- (lower-cased) e-mail and becomes a membership, with these flags, when his account comes
-- into existence. A workspace is deactivated, never deleted (auth.md §11A.3): the stamp hides
-- it from everyone but a super admin and purges nothing.
CREATE TABLE workspace_invitations (
  workspace_id  TEXT    NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  email         TEXT    NOT NULL CHECK (email = lower(email)),
  author        INTEGER NOT NULL DEFAULT 0 CHECK (author IN (0, 1)),
  promoter      INTEGER NOT NULL DEFAULT 0 CHECK (promoter IN (0, 1)),
  admin         INTEGER NOT NULL DEFAULT 0 CHECK (admin IN (0, 1)),
  invited_by    TEXT    NOT NULL,  -- provenance only, like workspaces.created_by
  invited_at_ms BIGINT  NOT NULL,
  PRIMARY KEY (workspace_id, email),
  CONSTRAINT workspace_invitations_admin_authors CHECK (admin = 0 OR author = 1)
);
CREATE INDEX workspace_invitations_email_idx ON workspace_invitations (email);

ALTER TABLE workspaces ADD COLUMN deactivated_at_ms BIGINT;
