CREATE TABLE "revoked_tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cluster_id" uuid NOT NULL,
	"code" text NOT NULL,
	"position" integer NOT NULL,
	"status" text DEFAULT 'Nije započeta' NOT NULL,
	"datum_pocetka" date,
	"datum_zavrsetka" date,
	"rok_zavrsetka" date,
	"version" integer DEFAULT 0 NOT NULL,
	"returned" integer DEFAULT 0 NOT NULL,
	"faults" boolean,
	"podaci" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_catalogue" (
	"code" text PRIMARY KEY NOT NULL,
	"position" integer NOT NULL,
	"naziv" text NOT NULL,
	"odgovoran" text[] NOT NULL,
	"rok" integer,
	"kontrolna" boolean DEFAULT false NOT NULL,
	"prethodna" text[] DEFAULT '{}'::text[] NOT NULL,
	"naredna" text[] DEFAULT '{}'::text[] NOT NULL,
	"kontrolise" text,
	"broj_fajlova" integer DEFAULT 0 NOT NULL,
	"dokumenta" text DEFAULT '' NOT NULL,
	"uputstvo" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"activity_id" uuid NOT NULL,
	"komentar" text NOT NULL,
	"user_id" uuid,
	"search_text" text GENERATED ALWAYS AS (trasa_fold("komentar")) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"activity_id" uuid NOT NULL,
	"stored_name" text NOT NULL,
	"originalno_ime" text NOT NULL,
	"mimetype" text NOT NULL,
	"size" integer NOT NULL,
	"is_required" boolean DEFAULT true NOT NULL,
	"revision" integer DEFAULT 0 NOT NULL,
	"slot" text,
	"deleted_at" timestamp with time zone,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ijo_holders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"naziv" text NOT NULL,
	"odgovoran" text DEFAULT 'Izvođač' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "origin" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "actor_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "user_codes" ADD COLUMN "payload" text;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activities" ADD CONSTRAINT "activities_code_activity_catalogue_code_fk" FOREIGN KEY ("code") REFERENCES "public"."activity_catalogue"("code") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_comments" ADD CONSTRAINT "activity_comments_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_comments" ADD CONSTRAINT "activity_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_files" ADD CONSTRAINT "activity_files_activity_id_activities_id_fk" FOREIGN KEY ("activity_id") REFERENCES "public"."activities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_files" ADD CONSTRAINT "activity_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "revoked_tokens_expires_idx" ON "revoked_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "activities_cluster_code_uq" ON "activities" USING btree ("cluster_id","code");--> statement-breakpoint
CREATE INDEX "activities_in_progress_idx" ON "activities" USING btree ("rok_zavrsetka","id") WHERE status = 'U toku';--> statement-breakpoint
CREATE INDEX "activities_code_status_idx" ON "activities" USING btree ("code","status");--> statement-breakpoint
CREATE INDEX "activity_comments_activity_idx" ON "activity_comments" USING btree ("activity_id","created_at");--> statement-breakpoint
CREATE INDEX "activity_comments_created_idx" ON "activity_comments" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "activity_comments_search_idx" ON "activity_comments" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "activity_files_activity_idx" ON "activity_files" USING btree ("activity_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ijo_holders_naziv_uq" ON "ijo_holders" USING btree (lower("naziv"));--> statement-breakpoint
CREATE INDEX "mail_outbox_actor_idx" ON "mail_outbox" USING btree ("actor_id","created_at");--> statement-breakpoint
CREATE INDEX "mail_outbox_status_idx" ON "mail_outbox" USING btree ("status");