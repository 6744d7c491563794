-- Sign-in throttles: the browsers an account signed in from, the browser of each sign-in attempt, and the counted
-- events of the one-time-code and password-reset flows.

-- A browser that signed in to an account (the SHA-256 of its device cookie): its sign-ins skip the account's
-- backoff, so that a stranger's wrong passwords do not lock the owner out.
CREATE TABLE known_devices (
  token_hash    text NOT NULL,
  user_id       integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  last_seen_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (token_hash, user_id)
);

ALTER TABLE login_attempts ADD COLUMN device_hash text;
CREATE INDEX login_attempts_device ON login_attempts (username, device_hash, attempted_at)
  WHERE device_hash IS NOT NULL;

-- One row per code sent, wrong code, code verified and reset e-mail asked for; subject is the user id (codes) or
-- the e-mail address asked for (resets, whether or not an account has it), address the caller's IP address.
CREATE TABLE auth_events (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind        text NOT NULL CHECK (kind IN ('otp_sent', 'otp_failed', 'otp_verified', 'reset_requested')),
  subject     text NOT NULL,
  address     text NOT NULL,
  happened_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_events_subject ON auth_events (kind, subject, happened_at);
CREATE INDEX auth_events_address ON auth_events (kind, address, happened_at);
