-- Two-step sign-in is set up only by the proven owner (docs/decisions/019-two-step-sign-in.md):
-- a secret made before that rule and never enabled may have been asked for by anyone holding a
-- session, so it is dropped; its owner sets up again (with their password) when they want it.
UPDATE "profiles" SET "totp_secret" = NULL, "totp_last_step" = NULL WHERE "totp_enabled_at" IS NULL AND "totp_secret" IS NOT NULL;
