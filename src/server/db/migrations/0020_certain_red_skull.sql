CREATE TABLE "webhook_announcements" (
	"key" text PRIMARY KEY NOT NULL,
	"announced_at" timestamp with time zone NOT NULL
);
