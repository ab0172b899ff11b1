DROP INDEX "audit_logs_created_idx";--> statement-breakpoint
DROP INDEX "audit_logs_group_idx";--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "search_text" text GENERATED ALWAYS AS (trasa_fold("message" || ' ' || "user_label" || ' ' || "ip" || ' ' || "url")) STORED;--> statement-breakpoint
CREATE INDEX "audit_logs_created_id_idx" ON "audit_logs" USING btree ("created_at","id") INCLUDE ("group_id");--> statement-breakpoint
CREATE INDEX "audit_logs_group_created_idx" ON "audit_logs" USING btree ("group_id","created_at","id");--> statement-breakpoint
CREATE INDEX "audit_logs_search_idx" ON "audit_logs" USING gin ("search_text" gin_trgm_ops);