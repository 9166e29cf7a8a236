-- Team-user state the core schema leaves out (S1): invitations and members granted every domain.
-- Both tables hang off users (001_core.sql) and disappear with the user.

-- One row per invited user. invite_sent_at is null when the invitation was created with send_invite false
-- and never re-sent; accepted_at stays null while the invitation is pending (users.status = 'invited').
CREATE TABLE user_invitations (
  user_id         INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  invited_by      INTEGER REFERENCES users (id) ON DELETE SET NULL,
  invite_sent_at  TEXT,
  invites_sent    INTEGER NOT NULL DEFAULT 0 CHECK (invites_sent >= 0),
  accepted_at     TEXT
);

-- Members with an assignable role who may see every domain of the team (POST/PATCH /users all_domains).
-- Owners and the non-assignable roles see every domain anyway (service/domains/visibility.ts).
CREATE TABLE user_all_domains (
  user_id     INTEGER PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  granted_at  TEXT    NOT NULL
);
