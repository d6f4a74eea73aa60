-- 0014_mail_sends: the claim row behind every notice the product mails (metadata-db §4.19) —
-- the welcome and password-reset mails to a person, the New user notice to the operators. One
-- row per message identity (user, kind, act), inserted before the SMTP server is touched: the
-- act is the person's own id for welcome and new_user (once per person, ever) and a fresh id
-- per password reset. A second claim of the same message inserts nothing and sends nothing,
-- so a mail carrying a one-time password never goes twice. Neither stamp set = pending;
-- sent_at_ms with the Message-ID = the server accepted it; error = it did not. Never a body.
CREATE TABLE mail_sends (
  id            TEXT   PRIMARY KEY,
  user_id       TEXT   NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind          TEXT   NOT NULL CHECK (kind IN ('welcome', 'password_reset', 'new_user')),
  act_id        TEXT   NOT NULL,
  recipient     TEXT   NOT NULL,
  claimed_at_ms BIGINT NOT NULL,
  sent_at_ms    BIGINT,
  message_id    TEXT,
  error         TEXT,
  CONSTRAINT uq_mail_sends_message UNIQUE (user_id, kind, act_id)
);
