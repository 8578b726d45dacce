CREATE TABLE "kyc_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"profile_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"side" text,
	"content_type" text NOT NULL,
	"size" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"sealed" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"erased_at" timestamp with time zone,
	CONSTRAINT "kyc_documents_side_check" CHECK (("kyc_documents"."kind" in ('id_card', 'residence_permit')) = ("kyc_documents"."side" is not null)),
	CONSTRAINT "kyc_documents_sealed_check" CHECK (("kyc_documents"."sealed" is null) = ("kyc_documents"."erased_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "kyc_documents" ADD CONSTRAINT "kyc_documents_profile_id_profiles_id_fk" FOREIGN KEY ("profile_id") REFERENCES "public"."profiles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "kyc_documents_profile_idx" ON "kyc_documents" USING btree ("profile_id","created_at" DESC NULLS LAST);