CREATE TABLE "screening_list_import_chunks" (
	"import_id" uuid NOT NULL,
	"file" integer NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "screening_list_import_chunks_import_id_file_seq_pk" PRIMARY KEY("import_id","file","seq")
);
--> statement-breakpoint
CREATE TABLE "screening_list_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"files" jsonb NOT NULL,
	"entries_read" integer DEFAULT 0 NOT NULL,
	"names_cut" integer DEFAULT 0 NOT NULL,
	"version_id" uuid,
	"unchanged" boolean,
	"error" jsonb,
	"imported_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "screening_list_imports_source_check" CHECK ("screening_list_imports"."source" in ('ofac_sdn', 'eu', 'un', 'uk')),
	CONSTRAINT "screening_list_imports_state_check" CHECK ("screening_list_imports"."state" in ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "screening_list_import_chunks" ADD CONSTRAINT "screening_list_import_chunks_import_id_screening_list_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."screening_list_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_list_imports" ADD CONSTRAINT "screening_list_imports_version_id_screening_list_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."screening_list_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_list_imports" ADD CONSTRAINT "screening_list_imports_imported_by_profiles_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "screening_list_imports_created_idx" ON "screening_list_imports" USING btree ("created_at" DESC NULLS LAST);