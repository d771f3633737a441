CREATE TABLE "advisory_notices" (
	"advisory_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"installed_version" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "advisory_notices_advisory_id_customer_id_pk" PRIMARY KEY("advisory_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "package_abandonments" (
	"package_id" uuid PRIMARY KEY NOT NULL,
	"replacement" text,
	"abandoned_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "security_advisories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"package_id" uuid NOT NULL,
	"advisory_key" text NOT NULL,
	"title" text NOT NULL,
	"affected_versions" text NOT NULL,
	"severity" text NOT NULL,
	"cve" text,
	"link" text,
	"reported_at" timestamp with time zone NOT NULL,
	"withdrawn_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "security_advisories_advisory_key_unique" UNIQUE("advisory_key")
);
--> statement-breakpoint
CREATE TABLE "version_yanks" (
	"package_id" uuid NOT NULL,
	"version" text NOT NULL,
	"reason" text NOT NULL,
	"yanked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "version_yanks_package_id_version_pk" PRIMARY KEY("package_id","version")
);
--> statement-breakpoint
ALTER TABLE "advisory_notices" ADD CONSTRAINT "advisory_notices_advisory_id_security_advisories_id_fk" FOREIGN KEY ("advisory_id") REFERENCES "public"."security_advisories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "advisory_notices" ADD CONSTRAINT "advisory_notices_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "package_abandonments" ADD CONSTRAINT "package_abandonments_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "security_advisories" ADD CONSTRAINT "security_advisories_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_yanks" ADD CONSTRAINT "version_yanks_package_id_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."packages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "security_advisories_package_idx" ON "security_advisories" USING btree ("package_id");