ALTER TABLE "profiles" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "profiles" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "profiles_closed_idx" ON "profiles" USING btree ("closed_at") WHERE "profiles"."closed_at" is not null and "profiles"."erased_at" is null;