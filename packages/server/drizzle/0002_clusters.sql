CREATE TABLE "cluster_groups" (
	"cluster_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	CONSTRAINT "cluster_groups_cluster_id_group_id_pk" PRIMARY KEY("cluster_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "cluster_settlements" (
	"cluster_id" uuid NOT NULL,
	"settlement_id" uuid NOT NULL,
	"usputno" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "cluster_settlements_cluster_id_settlement_id_pk" PRIMARY KEY("cluster_id","settlement_id")
);
--> statement-breakpoint
CREATE TABLE "clusters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"naziv" text NOT NULL,
	"indikativna_duzina_klastera" numeric,
	"ugovorena_vrednost_klastera" numeric,
	"adresa" text DEFAULT '' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (trasa_fold("naziv")) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_clusters" (
	"contract_id" uuid NOT NULL,
	"cluster_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contract_clusters_contract_id_cluster_id_pk" PRIMARY KEY("contract_id","cluster_id")
);
--> statement-breakpoint
CREATE TABLE "contract_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"contract_id" uuid NOT NULL,
	"stored_name" text NOT NULL,
	"originalno_ime" text NOT NULL,
	"mimetype" text NOT NULL,
	"size" integer NOT NULL,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contract_groups" (
	"contract_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	CONSTRAINT "contract_groups_contract_id_group_id_pk" PRIMARY KEY("contract_id","group_id")
);
--> statement-breakpoint
CREATE TABLE "contracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"naziv" text NOT NULL,
	"broj" text NOT NULL,
	"status" text DEFAULT 'U toku' NOT NULL,
	"datum_pocetka" date NOT NULL,
	"rok_trajanja" integer NOT NULL,
	"datum_zavrsetka" date,
	"search_text" text GENERATED ALWAYS AS (trasa_fold("naziv" || ' ' || "broj")) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "priorities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"naziv" text NOT NULL,
	"broj" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settlements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"naziv" text NOT NULL,
	"maticni_broj" text DEFAULT '' NOT NULL,
	"opstine" text[] DEFAULT '{}'::text[] NOT NULL,
	"operator" text DEFAULT '' NOT NULL,
	"javni_poziv" text DEFAULT '' NOT NULL,
	"broj_domacinstava" integer,
	"broj_skola" integer,
	"broj_indirektno_pokrivenih_domacinstava" integer,
	"broj_indirektno_pokrivenih_skola" integer,
	"search_text" text GENERATED ALWAYS AS (trasa_fold("code" || ' ' || "naziv" || ' ' || "maticni_broj")) STORED,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topic_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"topic_id" uuid NOT NULL,
	"tekst" text NOT NULL,
	"created_by" uuid,
	"group_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topics" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cluster_id" uuid NOT NULL,
	"opis" text DEFAULT '' NOT NULL,
	"group_id" uuid NOT NULL,
	"rok" timestamp with time zone,
	"prioritet" text DEFAULT 'srednji' NOT NULL,
	"status" text DEFAULT 'otvoren' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cluster_groups" ADD CONSTRAINT "cluster_groups_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_groups" ADD CONSTRAINT "cluster_groups_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_settlements" ADD CONSTRAINT "cluster_settlements_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cluster_settlements" ADD CONSTRAINT "cluster_settlements_settlement_id_settlements_id_fk" FOREIGN KEY ("settlement_id") REFERENCES "public"."settlements"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_clusters" ADD CONSTRAINT "contract_clusters_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_clusters" ADD CONSTRAINT "contract_clusters_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_files" ADD CONSTRAINT "contract_files_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_files" ADD CONSTRAINT "contract_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_groups" ADD CONSTRAINT "contract_groups_contract_id_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contract_groups" ADD CONSTRAINT "contract_groups_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_comments" ADD CONSTRAINT "topic_comments_topic_id_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_comments" ADD CONSTRAINT "topic_comments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_comments" ADD CONSTRAINT "topic_comments_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topics" ADD CONSTRAINT "topics_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cluster_groups_group_idx" ON "cluster_groups" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "cluster_settlements_settlement_idx" ON "cluster_settlements" USING btree ("settlement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "clusters_naziv_uq" ON "clusters" USING btree (lower("naziv"));--> statement-breakpoint
CREATE INDEX "clusters_search_idx" ON "clusters" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "contract_clusters_one_per_kind_uq" ON "contract_clusters" USING btree ("cluster_id","kind");--> statement-breakpoint
CREATE INDEX "contract_clusters_cluster_idx" ON "contract_clusters" USING btree ("cluster_id");--> statement-breakpoint
CREATE INDEX "contract_files_contract_idx" ON "contract_files" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "contract_groups_group_idx" ON "contract_groups" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "contracts_kind_idx" ON "contracts" USING btree ("kind","naziv");--> statement-breakpoint
CREATE INDEX "contracts_search_idx" ON "contracts" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "settlements_code_uq" ON "settlements" USING btree ("code");--> statement-breakpoint
CREATE INDEX "settlements_search_idx" ON "settlements" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "topic_comments_topic_idx" ON "topic_comments" USING btree ("topic_id","created_at");--> statement-breakpoint
CREATE INDEX "topics_updated_idx" ON "topics" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "topics_cluster_idx" ON "topics" USING btree ("cluster_id");--> statement-breakpoint
CREATE INDEX "topics_group_idx" ON "topics" USING btree ("group_id");