CREATE TABLE "download_grant_days" (
	"grant_id" uuid NOT NULL,
	"day" date NOT NULL,
	"network" text NOT NULL,
	"seller_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"package_id" uuid NOT NULL,
	"downloads" bigint NOT NULL,
	CONSTRAINT "download_grant_days_grant_id_day_network_pk" PRIMARY KEY("grant_id","day","network")
);
--> statement-breakpoint
CREATE TABLE "download_package_days" (
	"package_id" uuid NOT NULL,
	"day" date NOT NULL,
	"seller_id" uuid NOT NULL,
	"downloads" bigint NOT NULL,
	CONSTRAINT "download_package_days_package_id_day_pk" PRIMARY KEY("package_id","day")
);
--> statement-breakpoint
CREATE TABLE "grant_last_downloads" (
	"grant_id" uuid PRIMARY KEY NOT NULL,
	"seller_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"package_id" uuid NOT NULL,
	"version" text NOT NULL,
	"downloaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "downloads" ADD COLUMN "client_network" text;--> statement-breakpoint
ALTER TABLE "download_grant_days" ADD CONSTRAINT "download_grant_days_grant_id_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_grant_days" ADD CONSTRAINT "download_grant_days_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_package_days" ADD CONSTRAINT "download_package_days_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_package_days" ADD CONSTRAINT "download_package_days_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "grant_last_downloads" ADD CONSTRAINT "grant_last_downloads_grant_id_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."grants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_grant_days_seller_day_idx" ON "download_grant_days" USING btree ("seller_id","day");--> statement-breakpoint
CREATE INDEX "download_grant_days_customer_day_idx" ON "download_grant_days" USING btree ("customer_id","day");--> statement-breakpoint
CREATE INDEX "download_package_days_seller_day_idx" ON "download_package_days" USING btree ("seller_id","day");--> statement-breakpoint
CREATE INDEX "grant_last_downloads_seller_package_idx" ON "grant_last_downloads" USING btree ("seller_id","package_id");