ALTER TABLE "quotes" ALTER COLUMN "rate" SET DATA TYPE numeric(32, 20);--> statement-breakpoint
ALTER TABLE "quotes" ALTER COLUMN "reference_rate" SET DATA TYPE numeric(32, 20);--> statement-breakpoint
ALTER TABLE "transfer_requests" ALTER COLUMN "rate" SET DATA TYPE numeric(32, 20);--> statement-breakpoint
ALTER TABLE "transfer_requests" ADD COLUMN "quote_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_requests_quote_key" ON "transfer_requests" USING btree ("quote_id") WHERE "transfer_requests"."quote_id" is not null;