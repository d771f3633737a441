CREATE TABLE "code_host_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"base_url" text,
	"external_id" text,
	"account_name" text,
	"auth_method" text NOT NULL,
	"username" text,
	"secret_encrypted" text,
	"refresh_token_encrypted" text,
	"token_expires_at" timestamp with time zone,
	"scopes" text,
	"webhook_secret_encrypted" text,
	"status" text DEFAULT 'active' NOT NULL,
	"problem" text,
	"problem_since" timestamp with time zone,
	"problem_notified_at" timestamp with time zone,
	"created_by_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "holder_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text DEFAULT 'developer' NOT NULL,
	"token_hash" text NOT NULL,
	"token_hint" text,
	"created_by" text DEFAULT 'seller' NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"replaced_by_id" uuid,
	"rotated_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"leaked_at" timestamp with time zone,
	"leak_url" text,
	"oidc_trust_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oidc_token_uses" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"trust_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "oidc_trusts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"customer_id" uuid NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"audience" text NOT NULL,
	"subject" text NOT NULL,
	"created_by" text DEFAULT 'holder' NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "product_packages" (
	"product_id" uuid NOT NULL,
	"package_id" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_packages_product_id_package_id_pk" PRIMARY KEY("product_id","package_id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "token_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "grants" ALTER COLUMN "package_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "package_prices" ALTER COLUMN "package_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ALTER COLUMN "package_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "grants" ADD COLUMN "product_id" uuid;--> statement-breakpoint
ALTER TABLE "grants" ADD COLUMN "version_constraint" text;--> statement-breakpoint
ALTER TABLE "grants" ADD COLUMN "minimum_stability" text DEFAULT 'dev' NOT NULL;--> statement-breakpoint
ALTER TABLE "grants" ADD COLUMN "seats" integer;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "connection_id" uuid;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "repository_url" text;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "deploy_key_public" text;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "deploy_key_private_encrypted" text;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "ssh_host_key" text;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "ssh_host_key_fingerprint" text;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "last_reconciled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "access_problem" text;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "access_problem_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "packages" ADD COLUMN "access_problem_notified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "package_prices" ADD COLUMN "product_id" uuid;--> statement-breakpoint
ALTER TABLE "package_prices" ADD COLUMN "version_constraint" text;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "product_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "leaked_token_action" text DEFAULT 'revoke' NOT NULL;--> statement-breakpoint
ALTER TABLE "code_host_connections" ADD CONSTRAINT "code_host_connections_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "code_host_connections" ADD CONSTRAINT "code_host_connections_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "holder_tokens" ADD CONSTRAINT "holder_tokens_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_token_uses" ADD CONSTRAINT "oidc_token_uses_trust_id_oidc_trusts_id_fk" FOREIGN KEY ("trust_id") REFERENCES "public"."oidc_trusts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oidc_trusts" ADD CONSTRAINT "oidc_trusts_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_packages" ADD CONSTRAINT "product_packages_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_packages" ADD CONSTRAINT "product_packages_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "code_host_connections_owner_idx" ON "code_host_connections" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "code_host_connections_external_idx" ON "code_host_connections" USING btree ("kind","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "holder_tokens_token_hash_unique" ON "holder_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "holder_tokens_customer_idx" ON "holder_tokens" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "oidc_token_uses_expires_idx" ON "oidc_token_uses" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "oidc_trusts_customer_idx" ON "oidc_trusts" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "oidc_trusts_issuer_idx" ON "oidc_trusts" USING btree ("issuer");--> statement-breakpoint
CREATE INDEX "product_packages_package_idx" ON "product_packages" USING btree ("package_id");--> statement-breakpoint
CREATE UNIQUE INDEX "products_owner_name_unique" ON "products" USING btree ("owner_id",lower("name"));--> statement-breakpoint
CREATE INDEX "products_owner_idx" ON "products" USING btree ("owner_id");--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "packages" ADD CONSTRAINT "packages_connection_id_code_host_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."code_host_connections"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_prices" ADD CONSTRAINT "package_prices_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "grants_customer_product_unique" ON "grants" USING btree ("customer_id","product_id");--> statement-breakpoint
CREATE INDEX "grants_product_idx" ON "grants" USING btree ("product_id");--> statement-breakpoint
CREATE INDEX "packages_connection_idx" ON "packages" USING btree ("connection_id");--> statement-breakpoint
CREATE INDEX "package_prices_product_idx" ON "package_prices" USING btree ("product_id");--> statement-breakpoint
ALTER TABLE "grants" ADD CONSTRAINT "grants_one_target" CHECK (num_nonnulls("grants"."package_id", "grants"."product_id") = 1);--> statement-breakpoint
ALTER TABLE "package_prices" ADD CONSTRAINT "package_prices_one_target" CHECK (num_nonnulls("package_prices"."package_id", "package_prices"."product_id") = 1);--> statement-breakpoint
-- Every holder's one token becomes their first named token (issue 32); nothing breaks for existing holders.
INSERT INTO "holder_tokens" ("customer_id", "name", "kind", "token_hash", "created_by", "created_at")
SELECT "id", 'Composer token', 'developer', "token_hash", 'migration', "token_issued_at" FROM "customers"
WHERE "token_hash" IS NOT NULL
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Sellers connected through the old OAuth grant keep working through a connection of that kind (issue 30).
INSERT INTO "code_host_connections" ("owner_id", "kind", "label", "account_name", "auth_method", "secret_encrypted", "scopes", "created_at")
SELECT "id", 'github_oauth', coalesce("github_username", 'GitHub account') || ' on GitHub', "github_username", 'oauth',
  "github_access_token_encrypted", "github_scopes", "created_at"
FROM "users" WHERE "github_access_token_encrypted" IS NOT NULL;--> statement-breakpoint
UPDATE "packages" SET "connection_id" = c."id" FROM "code_host_connections" c
WHERE c."owner_id" = "packages"."owner_id" AND c."kind" = 'github_oauth' AND "packages"."code_host" = 'github';--> statement-breakpoint
INSERT INTO "code_host_connections" ("owner_id", "kind", "label", "auth_method")
SELECT DISTINCT "owner_id", 'local', 'Local folder', 'none' FROM "packages" WHERE "code_host" = 'local';--> statement-breakpoint
UPDATE "packages" SET "connection_id" = c."id" FROM "code_host_connections" c
WHERE c."owner_id" = "packages"."owner_id" AND c."kind" = 'local' AND "packages"."code_host" = 'local';
--> statement-breakpoint
-- The warm path's change feed (0013_access_change_feed) for the new tables that decide access. A token's last use
-- (written at most once a minute) decides nothing and stays silent, as a grant's download count does.
CREATE TRIGGER "holder_tokens_announce_access" AFTER INSERT OR DELETE ON "holder_tokens"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('c', 'customer_id');
--> statement-breakpoint
CREATE TRIGGER "holder_tokens_announce_access_update" AFTER UPDATE ON "holder_tokens"
  FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION "packgate_announce_access_change"('c', 'customer_id');
--> statement-breakpoint
CREATE TRIGGER "holder_tokens_announce_access_truncate" AFTER TRUNCATE ON "holder_tokens"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
--> statement-breakpoint
CREATE TRIGGER "products_announce_access" AFTER INSERT OR UPDATE OR DELETE ON "products"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_access_change"('s', 'owner_id');
--> statement-breakpoint
CREATE TRIGGER "products_announce_access_truncate" AFTER TRUNCATE ON "products"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
--> statement-breakpoint
-- A package joining or leaving a product changes what every holder of that product sees: announce the product's seller.
-- When the product itself is being deleted its own row announces the seller, and this lookup finds nothing.
CREATE FUNCTION "packgate_announce_product_package_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  seller uuid;
BEGIN
  SELECT "owner_id" INTO seller FROM "products" WHERE "id" = COALESCE(NEW."product_id", OLD."product_id");
  IF seller IS NOT NULL THEN
    PERFORM pg_notify('packgate_access', 's:' || seller::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "product_packages_announce_access" AFTER INSERT OR UPDATE OR DELETE ON "product_packages"
  FOR EACH ROW EXECUTE FUNCTION "packgate_announce_product_package_change"();
--> statement-breakpoint
CREATE TRIGGER "product_packages_announce_access_truncate" AFTER TRUNCATE ON "product_packages"
  FOR EACH STATEMENT EXECUTE FUNCTION "packgate_announce_access_flush"();
