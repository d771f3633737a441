import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { type TestApp, testAppAroundTests } from '../../../../test/support/test-app.js';
import { migrationsFolder } from '../../db/client.js';
import { plans } from '../../db/schema/index.js';
import { defaultPlans } from './default-plans.js';

// Migration 0032 (issue 36): an installation seeded before the plans said what the product does keeps its stored
// plan texts, since seeding only inserts missing plans. The migration replaces a text only where it is still one
// of the two earlier defaults, word for word; an admin's own edit stays.

const MIGRATION = readFileSync(path.join(migrationsFolder, '0032_plans_default_texts.sql'), 'utf8');

/** The first default texts (9f26fbc), with the limits repeated as features. */
const FIRST_DEFAULTS: Record<string, string[]> = {
  starter: [
    'Up to 3 private packages',
    'Up to 25 license holders',
    'Your own Composer repository host',
    'Temporary licenses sent by e-mail',
    'Download analytics',
    'E-mail support',
  ],
  growth: [
    'Up to 10 private packages',
    'Up to 100 license holders',
    'Everything in Starter',
    'White-label branding and a custom domain',
    'REST API v1 for your sales platform',
    'Priority e-mail support',
  ],
  enterprise: [
    'Unlimited private packages',
    'Unlimited license holders',
    'Everything in Scale',
    'GitHub Enterprise Server support',
    'Guided onboarding',
    'Priority support with a named contact',
  ],
};
/** The second default texts (4bebd7e), without the limits. */
const SECOND_SCALE = [
  'Everything in Growth',
  'Fine-grained API token permissions',
  'Pre-built package archives for fast installs',
  'Priority support',
];
const EDITED_BY_AN_ADMIN = ['Everything in Starter', 'REST API v1 for your sales platform', 'A phone line'];

const current = (id: string) => defaultPlans.find((plan) => plan.id === id)!;

/** Runs the migration's statements on the rows as they stand (it ran on the seeded defaults when the app started). */
async function runMigration(app: TestApp): Promise<void> {
  for (const statement of MIGRATION.split('--> statement-breakpoint')) {
    await app.ctx.db.execute(sql.raw(statement));
  }
}

describe('migration 0032: the plans of an earlier installation', () => {
  const started = testAppAroundTests();
  beforeEach(async () => {
    await started.app.ctx.db.delete(plans);
  });

  it('get the current default texts where theirs are an earlier default, and keep an admin’s edit', async () => {
    const row = (id: string, features: string[], description = current(id).description) => ({
      ...current(id),
      features,
      description,
    });
    await started.app.ctx.db
      .insert(plans)
      .values([
        row('starter', FIRST_DEFAULTS.starter!),
        row(
          'growth',
          FIRST_DEFAULTS.growth!,
          'For a growing catalogue with a steady stream of customers and your own brand.',
        ),
        row('scale', SECOND_SCALE),
        row('enterprise', FIRST_DEFAULTS.enterprise!),
        { ...row('starter', EDITED_BY_AN_ADMIN), id: 'agency', name: 'Agency' },
      ]);
    await runMigration(started.app);
    const stored = await started.app.ctx.db.select().from(plans);
    const byId = new Map(stored.map((plan) => [plan.id, plan]));
    for (const id of ['starter', 'growth', 'scale', 'enterprise']) {
      expect(byId.get(id)?.features, id).toEqual(current(id).features);
    }
    expect(byId.get('growth')?.description).toBe(current('growth').description);
    expect(byId.get('agency')?.features).toEqual(EDITED_BY_AN_ADMIN);
  });

  it('leaves a default plan whose features an admin edited as it is', async () => {
    const edited = [...SECOND_SCALE, 'A phone line'];
    await started.app.ctx.db.insert(plans).values({ ...current('scale'), features: edited });
    await runMigration(started.app);
    const [scale] = await started.app.ctx.db.select().from(plans);
    expect(scale?.features).toEqual(edited);
  });
});
