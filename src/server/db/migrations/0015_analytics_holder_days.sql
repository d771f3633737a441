CREATE TABLE "download_holder_day_networks" (
	"customer_id" uuid NOT NULL,
	"day" date NOT NULL,
	"network" text NOT NULL,
	CONSTRAINT "download_holder_day_networks_customer_id_day_network_pk" PRIMARY KEY("customer_id","day","network")
);
--> statement-breakpoint
CREATE TABLE "download_holder_days" (
	"customer_id" uuid NOT NULL,
	"day" date NOT NULL,
	"seller_id" uuid NOT NULL,
	"downloads" bigint NOT NULL,
	"networks" integer NOT NULL,
	CONSTRAINT "download_holder_days_customer_id_day_pk" PRIMARY KEY("customer_id","day")
);
--> statement-breakpoint
ALTER TABLE "download_holder_day_networks" ADD CONSTRAINT "download_holder_day_networks_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "download_holder_days" ADD CONSTRAINT "download_holder_days_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "download_holder_days_seller_day_idx" ON "download_holder_days" USING btree ("seller_id","day","customer_id","downloads");--> statement-breakpoint
CREATE INDEX "download_holder_days_shared_idx" ON "download_holder_days" USING btree ("seller_id","day") WHERE "download_holder_days"."networks" >= 2;