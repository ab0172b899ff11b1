-- A change sent with an Idempotency-Key is applied once per user and key (platform/idempotency.ts;
-- docs/decisions.md "Offline"): the first request claims the key (status null while it is applied), a
-- successful one keeps its answer for the repeats, a failed one removes the row. Rows older than seven
-- days are removed after a reply, at most once an hour. A new, empty table: instant on any database.
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" uuid NOT NULL,
	"request" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer,
	"answer" json,
	CONSTRAINT "idempotency_keys_pkey" PRIMARY KEY ("user_id", "key")
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "idempotency_keys_started_idx" ON "idempotency_keys" USING btree ("started_at");
