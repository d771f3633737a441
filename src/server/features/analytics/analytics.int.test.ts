import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { insertPackage } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import type { DashboardAnalytics } from '../../../contract/analytics.js';
import { customers, downloads, grants } from '../../db/schema/index.js';
import { sha256Hex } from '../../lib/crypto.js';

const now = new Date('2026-03-15T12:00:00.000Z');

describe('dashboard analytics', () => {
  let app: TestApp;
  let seller: SignedIn;
  let other: SignedIn;

  async function insertHolder(sellerId: string, email: string) {
    const [row] = await app.ctx.db
      .insert(customers)
      .values({ sellerId, email, tokenHash: sha256Hex(`${sellerId}:${email}`) })
      .returning();
    return row!;
  }

  async function insertGrant(customerId: string, packageId: string, values: Partial<typeof grants.$inferInsert> = {}) {
    const [row] = await app.ctx.db
      .insert(grants)
      .values({ customerId, packageId, kind: 'temporary', endMode: 'access', ...values })
      .returning();
    return row!;
  }

  async function dashboard(client: TestClient): Promise<DashboardAnalytics> {
    const response = await client.get('/api/analytics/dashboard');
    expect(response.status).toBe(200);
    return response.json();
  }

  beforeAll(async () => {
    app = await startTestApp({ clock: new TestClock(now) });
    seller = await signInSeller(app);
    other = await signInSeller(app);
  });
  afterAll(async () => {
    await app.close();
  });

  it('answers zeros for a seller with nothing yet', async () => {
    expect(await dashboard(seller.client)).toEqual({
      activePackages: 0,
      totalDownloads: 0,
      monthlyUsage: 0,
      totalUsers: 0,
    });
  });

  it('counts active packages, all downloads, this month’s downloads and holders with a live license', async () => {
    const widget = await insertPackage(app, seller.user.id, 'acme/widget');
    const gadget = await insertPackage(app, seller.user.id, 'acme/gadget');
    await insertPackage(app, seller.user.id, 'acme/retired', false);
    const foreign = await insertPackage(app, other.user.id, 'other/pkg');

    const day = 86_400_000;
    const active = await insertHolder(seller.user.id, 'active@example.com');
    const twoLicenses = await insertHolder(seller.user.id, 'two@example.com');
    const perpetual = await insertHolder(seller.user.id, 'perpetual@example.com');
    const revoked = await insertHolder(seller.user.id, 'revoked@example.com');
    const expired = await insertHolder(seller.user.id, 'expired@example.com');
    const frozen = await insertHolder(seller.user.id, 'frozen@example.com');
    await insertHolder(seller.user.id, 'no-grant@example.com');

    const activeGrant = await insertGrant(active.id, widget.id, { expiresAt: new Date(now.getTime() + 3 * day) });
    await insertGrant(twoLicenses.id, widget.id, { expiresAt: new Date(now.getTime() + day) });
    await insertGrant(twoLicenses.id, gadget.id, { expiresAt: new Date(now.getTime() + day) });
    await insertGrant(perpetual.id, gadget.id, { kind: 'purchase', expiresAt: null });
    await insertGrant(perpetual.id, widget.id, { status: 'revoked', revokedAt: now });
    const revokedGrant = await insertGrant(revoked.id, widget.id, {
      status: 'revoked',
      revokedAt: now,
      expiresAt: new Date(now.getTime() + 5 * day),
    });
    const expiredGrant = await insertGrant(expired.id, gadget.id, { expiresAt: new Date(now.getTime() - day) });
    await insertGrant(frozen.id, gadget.id, {
      kind: 'purchase',
      endMode: 'updates',
      expiresAt: new Date(now.getTime() - 10 * day),
    });

    const otherHolder = await insertHolder(other.user.id, 'active@example.com');
    const otherGrant = await insertGrant(otherHolder.id, foreign.id, { expiresAt: null });

    const at = (iso: string) => new Date(iso);
    await app.ctx.db.insert(downloads).values([
      // This month (March 2026, UTC), including its very first instant.
      { grantId: activeGrant.id, packageId: widget.id, version: '1.0.0', downloadedAt: at('2026-03-01T00:00:00.000Z') },
      { grantId: activeGrant.id, packageId: widget.id, version: '1.1.0', downloadedAt: at('2026-03-10T08:00:00.000Z') },
      {
        grantId: expiredGrant.id,
        packageId: gadget.id,
        version: '2.0.0',
        downloadedAt: at('2026-03-15T11:59:00.000Z'),
      },
      // Last month, up to its very last instant.
      {
        grantId: revokedGrant.id,
        packageId: widget.id,
        version: '1.0.0',
        downloadedAt: at('2026-02-28T23:59:59.999Z'),
      },
      {
        grantId: expiredGrant.id,
        packageId: gadget.id,
        version: '1.0.0',
        downloadedAt: at('2026-02-01T00:00:00.000Z'),
      },
      // Last year.
      { grantId: activeGrant.id, packageId: widget.id, version: '0.9.0', downloadedAt: at('2025-03-20T00:00:00.000Z') },
      // Another seller's, this month.
      { grantId: otherGrant.id, packageId: foreign.id, version: '1.0.0', downloadedAt: at('2026-03-12T00:00:00.000Z') },
    ]);

    expect(await dashboard(seller.client)).toEqual({
      activePackages: 2,
      totalDownloads: 6,
      monthlyUsage: 3,
      totalUsers: 3, // active, twoLicenses (once), perpetual; not revoked, expired, frozen past its end, nor no-grant
    });
    expect(await dashboard(other.client)).toEqual({
      activePackages: 1,
      totalDownloads: 1,
      monthlyUsage: 1,
      totalUsers: 1,
    });
  });

  it('requires a session', async () => {
    const response = await new TestClient(app.baseUrl).get('/api/analytics/dashboard');
    expect(response.status).toBe(401);
  });
});
