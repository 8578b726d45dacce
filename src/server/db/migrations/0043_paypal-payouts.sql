ALTER TABLE "collection_attempts" DROP CONSTRAINT "collection_attempts_rail_check";--> statement-breakpoint
ALTER TABLE "operator_statements" DROP CONSTRAINT "operator_statements_rail_check";--> statement-breakpoint
ALTER TABLE "payout_attempts" DROP CONSTRAINT "payout_attempts_rail_check";--> statement-breakpoint
ALTER TABLE "payout_attempts" DROP CONSTRAINT "payout_attempts_account_check";--> statement-breakpoint
ALTER TABLE "payout_float_waits" DROP CONSTRAINT "payout_float_waits_rail_check";--> statement-breakpoint
ALTER TABLE "payout_rails" DROP CONSTRAINT "payout_rails_id_check";--> statement-breakpoint
ALTER TABLE "rail_callbacks" DROP CONSTRAINT "rail_callbacks_operator_check";--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "collection_attempts" ADD CONSTRAINT "collection_attempts_rail_check" CHECK ("collection_attempts"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'paypal_payouts', 'sepa_france'));--> statement-breakpoint
ALTER TABLE "operator_statements" ADD CONSTRAINT "operator_statements_rail_check" CHECK ("operator_statements"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'paypal_payouts', 'sepa_france'));--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_rail_check" CHECK ("payout_attempts"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'paypal_payouts', 'sepa_france'));--> statement-breakpoint
ALTER TABLE "payout_attempts" ADD CONSTRAINT "payout_attempts_account_check" CHECK (case when "payout_attempts"."rail" = 'sepa_france' then "payout_attempts"."iban" is not null and "payout_attempts"."bank_file_id" is not null when "payout_attempts"."rail" = 'paypal_payouts' then "payout_attempts"."email" is not null else "payout_attempts"."msisdn" is not null and "payout_attempts"."name_check" is not null end);--> statement-breakpoint
ALTER TABLE "payout_float_waits" ADD CONSTRAINT "payout_float_waits_rail_check" CHECK ("payout_float_waits"."rail" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'paypal_payouts', 'sepa_france'));--> statement-breakpoint
ALTER TABLE "payout_rails" ADD CONSTRAINT "payout_rails_id_check" CHECK ("payout_rails"."id" in ('airtel_gabon', 'airtel_rwanda', 'mtn_rwanda', 'paypal_payouts', 'sepa_france'));--> statement-breakpoint
ALTER TABLE "rail_callbacks" ADD CONSTRAINT "rail_callbacks_operator_check" CHECK ("rail_callbacks"."operator" in ('airtel', 'mtn', 'paypal'));--> statement-breakpoint
INSERT INTO "payout_rails" ("id") VALUES ('paypal_payouts');
