DROP INDEX "transfer_requests_provider_txn_idx";--> statement-breakpoint
DROP INDEX "transfer_requests_provider_order_idx";--> statement-breakpoint
DROP INDEX "transfer_requests_idempotency_key";--> statement-breakpoint
CREATE INDEX "transfer_requests_provider_txn_idx" ON "transfer_requests" USING btree ("provider_txn_id") WHERE "transfer_requests"."provider_txn_id" is not null;--> statement-breakpoint
CREATE INDEX "transfer_requests_provider_order_idx" ON "transfer_requests" USING btree ("provider_order_id") WHERE "transfer_requests"."provider_order_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_requests_idempotency_key" ON "transfer_requests" USING btree ("profile_id","idempotency_key") WHERE "transfer_requests"."idempotency_key" is not null;