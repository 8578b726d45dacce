CREATE TABLE "screening_list_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"version_id" uuid NOT NULL,
	"list_id" text NOT NULL,
	"kind" text NOT NULL,
	"names" jsonb NOT NULL,
	"birth_dates" jsonb NOT NULL,
	"countries" jsonb NOT NULL,
	"programmes" jsonb NOT NULL,
	"fingerprint" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screening_list_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source" text NOT NULL,
	"sha256" text NOT NULL,
	"entries" integer NOT NULL,
	"names" integer NOT NULL,
	"imported_by" uuid,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "screening_list_versions_source_check" CHECK ("screening_list_versions"."source" in ('ofac_sdn', 'eu', 'un', 'uk'))
);
--> statement-breakpoint
CREATE TABLE "screening_sources" (
	"source" text PRIMARY KEY NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"max_age_hours" integer DEFAULT 36 NOT NULL,
	"current_version_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "screening_sources_source_check" CHECK ("screening_sources"."source" in ('ofac_sdn', 'eu', 'un', 'uk')),
	CONSTRAINT "screening_sources_max_age_check" CHECK ("screening_sources"."max_age_hours" between 1 and 8760)
);
--> statement-breakpoint
ALTER TABLE "screening_list_entries" ADD CONSTRAINT "screening_list_entries_version_id_screening_list_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."screening_list_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_list_versions" ADD CONSTRAINT "screening_list_versions_imported_by_profiles_id_fk" FOREIGN KEY ("imported_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_sources" ADD CONSTRAINT "screening_sources_current_version_id_screening_list_versions_id_fk" FOREIGN KEY ("current_version_id") REFERENCES "public"."screening_list_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screening_sources" ADD CONSTRAINT "screening_sources_updated_by_profiles_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."profiles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "screening_list_entries_version_idx" ON "screening_list_entries" USING btree ("version_id","id");--> statement-breakpoint
CREATE INDEX "screening_list_versions_source_idx" ON "screening_list_versions" USING btree ("source","imported_at" DESC NULLS LAST);--> statement-breakpoint
-- One row per list, not yet required: a list becomes required at its first import (docs/rules/screening.md#lists-in-the-product).
INSERT INTO "screening_sources" ("source") VALUES ('ofac_sdn'), ('eu'), ('un'), ('uk');
