CREATE TABLE "sender_daily_totals" (
	"profile_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(20, 2) NOT NULL,
	"transfers" integer NOT NULL,
	CONSTRAINT "sender_daily_totals_profile_id_currency_day_pk" PRIMARY KEY("profile_id","currency","day")
);
