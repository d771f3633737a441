-- Plans still carrying an earlier default text get the current one (issue 36: every seller has API v1 with token
-- permissions and white-label branding, so no plan sells them as extras); a plan whose texts an admin edited is kept.
-- The two earlier defaults are those of 9f26fbc (with "Up to N ..." lines) and 4bebd7e (without).
UPDATE "plans" SET "features" = '["Your own Composer repository host","Temporary licenses sent by e-mail","White-label branding and a custom domain","Download analytics","REST API v1 with fine-grained token permissions","E-mail support"]'::jsonb
WHERE "id" = 'starter' AND "features" IN (
  '["Up to 3 private packages","Up to 25 license holders","Your own Composer repository host","Temporary licenses sent by e-mail","Download analytics","E-mail support"]'::jsonb,
  '["Your own Composer repository host","Temporary licenses sent by e-mail","Download analytics","E-mail support"]'::jsonb);--> statement-breakpoint
UPDATE "plans" SET "features" = '["Everything in Starter","Priority e-mail support"]'::jsonb
WHERE "id" = 'growth' AND "features" IN (
  '["Up to 10 private packages","Up to 100 license holders","Everything in Starter","White-label branding and a custom domain","REST API v1 for your sales platform","Priority e-mail support"]'::jsonb,
  '["Everything in Starter","White-label branding and a custom domain","REST API v1 for your sales platform","Priority e-mail support"]'::jsonb);--> statement-breakpoint
UPDATE "plans" SET "description" = 'For a growing catalogue with a steady stream of customers.'
WHERE "id" = 'growth' AND "description" = 'For a growing catalogue with a steady stream of customers and your own brand.';--> statement-breakpoint
UPDATE "plans" SET "features" = '["Everything in Growth","Priority support"]'::jsonb
WHERE "id" = 'scale' AND "features" IN (
  '["Up to 25 private packages","Up to 500 license holders","Everything in Growth","Fine-grained API token permissions","Pre-built package archives for fast installs","Priority support"]'::jsonb,
  '["Everything in Growth","Fine-grained API token permissions","Pre-built package archives for fast installs","Priority support"]'::jsonb);--> statement-breakpoint
UPDATE "plans" SET "features" = '["Everything in Scale","GitHub Enterprise Server support","Guided onboarding","Priority support with a named contact"]'::jsonb
WHERE "id" = 'enterprise' AND "features" = '["Unlimited private packages","Unlimited license holders","Everything in Scale","GitHub Enterprise Server support","Guided onboarding","Priority support with a named contact"]'::jsonb;
