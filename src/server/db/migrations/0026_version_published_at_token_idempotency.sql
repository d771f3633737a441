-- Remembered answers cannot be attributed to the API token that caused them: forget them (a retry within 24 hours
-- of the upgrade does its work again, once, under its own token).
DELETE FROM "idempotency_keys";--> statement-breakpoint
DROP INDEX "idempotency_keys_user_key_unique";--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD COLUMN "api_token_id" uuid NOT NULL;--> statement-breakpoint
-- A version already known was first seen when its row was made.
ALTER TABLE "package_versions" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
UPDATE "package_versions" SET "published_at" = "created_at";--> statement-breakpoint
ALTER TABLE "package_versions" ALTER COLUMN "published_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_api_token_id_api_tokens_id_fk" FOREIGN KEY ("api_token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "idempotency_keys_token_key_unique" ON "idempotency_keys" USING btree ("api_token_id","key");
