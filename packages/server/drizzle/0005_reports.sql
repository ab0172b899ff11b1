CREATE TABLE "report_snapshot_rows" (
	"snapshot_id" uuid NOT NULL,
	"cluster_id" uuid NOT NULL,
	"data" jsonb NOT NULL,
	CONSTRAINT "report_snapshot_rows_snapshot_id_cluster_id_pk" PRIMARY KEY("snapshot_id","cluster_id")
);
--> statement-breakpoint
CREATE TABLE "report_snapshots" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"date" date NOT NULL,
	"type" text NOT NULL,
	"randomized" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "report_snapshot_rows" ADD CONSTRAINT "report_snapshot_rows_snapshot_id_report_snapshots_id_fk" FOREIGN KEY ("snapshot_id") REFERENCES "public"."report_snapshots"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "report_snapshot_rows_cluster_idx" ON "report_snapshot_rows" USING btree ("cluster_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_snapshots_date_type_uq" ON "report_snapshots" USING btree ("date","type");