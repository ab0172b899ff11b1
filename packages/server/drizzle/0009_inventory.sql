CREATE TABLE "a13_confirmations" (
	"cluster_id" uuid PRIMARY KEY NOT NULL,
	"status" boolean DEFAULT false NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inventory_contract_files" (
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
CREATE TABLE "inventory_contract_locations" (
	"contract_id" uuid NOT NULL,
	"cluster_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inventory_contract_locations_contract_id_cluster_id_pk" PRIMARY KEY("contract_id","cluster_id")
);
--> statement-breakpoint
CREATE TABLE "inventory_contracts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"naziv" text NOT NULL,
	"broj" text NOT NULL,
	"broj_key" text NOT NULL,
	"datum_pocetka" date NOT NULL,
	"datum_zavrsetka" date,
	"search_text" text GENERATED ALWAYS AS (trasa_fold("naziv" || ' ' || "broj")) STORED,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inventory_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type_id" uuid NOT NULL,
	"cluster_id" uuid NOT NULL,
	"contract_id" uuid,
	"kolicina" numeric(15, 3) NOT NULL,
	"cena_rsd" numeric(14, 2) NOT NULL,
	"datum_primopredaje" date NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "inventory_types" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"naziv" text NOT NULL,
	"kratak_naziv" text DEFAULT '' NOT NULL,
	"tip" text NOT NULL,
	"trajanje_garancije" integer,
	"cena" numeric(14, 2) NOT NULL,
	"valuta" text DEFAULT 'RSD' NOT NULL,
	"cena_rsd" numeric(14, 2) NOT NULL,
	"sifra" text DEFAULT '' NOT NULL,
	"redni_broj" integer,
	"jedinica" text DEFAULT 'kom' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "school_notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"cluster_id" uuid NOT NULL,
	"email" text NOT NULL,
	"lista" jsonb NOT NULL,
	"code_hash" text NOT NULL,
	"mail_poslat" boolean DEFAULT false NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone,
	"sent_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clusters" ADD COLUMN "skola_email" text;--> statement-breakpoint
ALTER TABLE "a13_confirmations" ADD CONSTRAINT "a13_confirmations_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "a13_confirmations" ADD CONSTRAINT "a13_confirmations_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_contract_files" ADD CONSTRAINT "inventory_contract_files_contract_id_inventory_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."inventory_contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_contract_files" ADD CONSTRAINT "inventory_contract_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_contract_locations" ADD CONSTRAINT "inventory_contract_locations_contract_id_inventory_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."inventory_contracts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_contract_locations" ADD CONSTRAINT "inventory_contract_locations_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_contracts" ADD CONSTRAINT "inventory_contracts_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_type_id_inventory_types_id_fk" FOREIGN KEY ("type_id") REFERENCES "public"."inventory_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_contract_id_inventory_contracts_id_fk" FOREIGN KEY ("contract_id") REFERENCES "public"."inventory_contracts"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inventory_items" ADD CONSTRAINT "inventory_items_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_notifications" ADD CONSTRAINT "school_notifications_cluster_id_clusters_id_fk" FOREIGN KEY ("cluster_id") REFERENCES "public"."clusters"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "school_notifications" ADD CONSTRAINT "school_notifications_sent_by_users_id_fk" FOREIGN KEY ("sent_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inventory_contract_files_contract_idx" ON "inventory_contract_files" USING btree ("contract_id");--> statement-breakpoint
CREATE INDEX "inventory_contract_locations_cluster_idx" ON "inventory_contract_locations" USING btree ("cluster_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_contracts_broj_uq" ON "inventory_contracts" USING btree ("broj_key");--> statement-breakpoint
CREATE INDEX "inventory_contracts_created_idx" ON "inventory_contracts" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "inventory_contracts_search_idx" ON "inventory_contracts" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "inventory_items_cluster_idx" ON "inventory_items" USING btree ("cluster_id","type_id","datum_primopredaje");--> statement-breakpoint
CREATE INDEX "inventory_items_type_idx" ON "inventory_items" USING btree ("type_id");--> statement-breakpoint
CREATE INDEX "inventory_items_contract_idx" ON "inventory_items" USING btree ("contract_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_types_naziv_uq" ON "inventory_types" USING btree ("tip",trasa_fold("naziv"));--> statement-breakpoint
CREATE INDEX "inventory_types_sifra_idx" ON "inventory_types" USING btree ("sifra");--> statement-breakpoint
CREATE INDEX "school_notifications_created_idx" ON "school_notifications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "school_notifications_cluster_idx" ON "school_notifications" USING btree ("cluster_id");