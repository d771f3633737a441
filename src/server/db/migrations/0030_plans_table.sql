-- The platform's plans were the table "pricing_tiers", a name that packages' prices (package_prices) shared in code.
ALTER TABLE "pricing_tiers" RENAME TO "plans";--> statement-breakpoint
ALTER TABLE "plans" RENAME CONSTRAINT "pricing_tiers_pkey" TO "plans_pkey";
