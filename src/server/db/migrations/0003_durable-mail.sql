CREATE TABLE "mail_deliveries" (
	"mail_id" uuid PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
