-- 0012_oidc_sign_in: single sign-on (auth.md §4.1–§4.2, §5). Each person's row names where
-- they last signed in from — `local` (a password), `bootstrap` (pre-provisioned first admin)
-- or the registration name of an OpenID provider — with that provider's stable subject, the
-- picture its ID token carried and when they last signed in. Linking is by e-mail: a row keeps
-- its id whichever way the person arrives.
ALTER TABLE users ADD COLUMN provider TEXT NOT NULL DEFAULT 'local';
ALTER TABLE users ADD COLUMN provider_subject TEXT;
ALTER TABLE users ADD COLUMN profile_picture_url TEXT;
ALTER TABLE users ADD COLUMN last_login_at_ms BIGINT;

-- One row per sign-in sent to a provider and not yet back: the state it was sent with (only its
-- SHA-256 kept), the nonce the ID token must carry and the PKCE verifier. Taken once at the
-- callback (deleted by the statement that reads it), so a replayed callback finds nothing; rows
-- older than ten minutes are refused and swept.
CREATE TABLE oidc_login_requests (
  state_hash     TEXT   PRIMARY KEY,
  provider       TEXT   NOT NULL,
  nonce          TEXT   NOT NULL,
  code_verifier  TEXT   NOT NULL,
  next_path      TEXT   NOT NULL,
  created_at_ms  BIGINT NOT NULL
);
