-- Sign-in flows: one-time codes, validation keys (reset, activation), login throttling, the local outbox,
-- and the single sign-on handshake state of a session.

CREATE TABLE one_time_codes (
  session_hash  text PRIMARY KEY REFERENCES sessions (token_hash) ON DELETE CASCADE,
  code_hash     text NOT NULL,
  attempts      smallint NOT NULL DEFAULT 0,
  expires_at    timestamptz NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE validation_keys (
  key_hash      text PRIMARY KEY,
  user_id       integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose       text NOT NULL CHECK (purpose IN ('reset', 'activate')),
  expires_at    timestamptz NOT NULL,
  used_at       timestamptz,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX validation_keys_user ON validation_keys (user_id);

CREATE TABLE login_attempts (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  username      text NOT NULL,
  address       text NOT NULL,
  succeeded     boolean NOT NULL,
  attempted_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_attempts_username ON login_attempts (username, attempted_at);
CREATE INDEX login_attempts_address ON login_attempts (address, attempted_at);

-- Mail kept here, readable by the super admin, when no SMTP server is configured.
CREATE TABLE outbox (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  recipient   text NOT NULL,
  subject     text NOT NULL,
  text        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);

-- state, nonce, PKCE verifier and domain while a single sign-on is under way; the ID token after it.
ALTER TABLE sessions ADD COLUMN sso_pending jsonb;
ALTER TABLE sessions ADD COLUMN sso_id_token text;
CREATE INDEX sessions_sso_binding ON sessions ((sso_pending->>'bindingHash')) WHERE sso_pending IS NOT NULL;
