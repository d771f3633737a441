CREATE TABLE "brand_settings" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"brand_name" text,
	"brand_logo" text,
	"brand_hide_text" boolean DEFAULT false NOT NULL,
	"brand_color" text,
	"brand_background_color" text,
	"brand_card_color" text,
	"brand_border_color" text,
	"brand_text_color" text,
	"brand_secondary_text_color" text,
	"brand_header_color" text,
	"brand_domain" text,
	"brand_domain_verified_at" timestamp with time zone,
	"support_email" text,
	"email_from_name" text,
	"email_from_address" text,
	"email_reply_to" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stripe_prices" (
	"tier_id" text NOT NULL,
	"mode" text NOT NULL,
	"price_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"product_id" text NOT NULL,
	"price_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stripe_prices_tier_id_mode_price_cents_currency_pk" PRIMARY KEY("tier_id","mode","price_cents","currency")
);
--> statement-breakpoint
ALTER TABLE "brand_settings" ADD CONSTRAINT "brand_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brand_settings_domain_unique" ON "brand_settings" USING btree (lower("brand_domain"));