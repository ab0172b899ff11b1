-- The script the web shows its texts in, per user (issue 13 item 10): 'cyr' (Ћирилица, the default) or
-- 'lat' (Latinica); saved by POST /api/user/edit-script and returned in my-profile.
ALTER TABLE "users" ADD COLUMN "pismo" text DEFAULT 'cyr' NOT NULL;
