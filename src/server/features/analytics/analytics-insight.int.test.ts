import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../../../../test/support/http-client.js';
import { insertPackage } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock, YEAR_LONG_SESSIONS } from '../../../../test/support/test-app.js';
import type {
  DashboardAnalytics,
  DownloadSeries,
  SharingSignal,
  StaleHolders,
  TopHolders,
  VersionAdoption,
} from '../../../contract/analytics.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import { customers, downloads, grants, packages } from '../../db/schema/index.js';
import { DAY_MS } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { recordDownload } from '../licenses/grants.service.js';

// The Analytics page's figures must equal what the downloads table holds: every test counts the rows itself.

const now = new Date('2026-03-15T12:00:00.000Z');
const daysAgo = (days: number, hour = 10) => new Date(Date.UTC(2026, 2, 15 - days, hour));

describe('seller analytics', () => {
  let app: TestApp;
  let seller: SignedIn;
  let other: SignedIn;
  let widgetId: string;
  let gadgetId: string;
  let foreignPackageId: string;

  async function insertHolder(sellerId: string, email: string) {
    const [row] = await app.ctx.db
      .insert(customers)
      .values({ sellerId, email, tokenHash: sha256Hex(`${sellerId}:${email}`) })
      .returning();
    return row!.id;
  }

  async function insertGrant(customerId: string, packageId: string, values: Partial<typeof grants.$inferInsert> = {}) {
    const [row] = await app.ctx.db
      .insert(grants)
      .values({ customerId, packageId, kind: 'temporary', endMode: 'access', ...values })
      .returning();
    return row!.id;
  }

  async function getJson<T>(client: TestClient, path: string): Promise<T> {
    const response = await client.get(path);
    expect(response.status, path).toBe(200);
    return (await response.json()) as T;
  }

  /** Downloads per UTC day counted straight from the downloads table. */
  async function countedByDay(where: ReturnType<typeof sql>): Promise<Map<string, number>> {
    const result = (await app.ctx.db.execute(sql`
      select (d.downloaded_at at time zone 'UTC')::date::text as day, count(*)::int as n
      from ${downloads} d join ${packages} p on p.id = d.package_id join ${grants} g on g.id = d.grant_id
      join ${customers} c on c.id = g.customer_id
      where ${where} group by 1`)) as unknown as { rows: { day: string; n: number }[] };
    return new Map(result.rows.map((row) => [row.day, Number(row.n)]));
  }

  function seriesMap(series: DownloadSeries): Map<string, number> {
    return new Map(series.points.filter((point) => point.downloads > 0).map((point) => [point.start, point.downloads]));
  }

  const sum = (values: Iterable<number>) => [...values].reduce((total, value) => total + value, 0);
  const inPeriod = (counts: Map<string, number>, from: string) =>
    new Map([...counts].filter(([day]) => day >= from && day <= '2026-03-15'));

  const holders: Record<string, string> = {};
  const grantIds: Record<string, string> = {};

  beforeAll(async () => {
    app = await startTestApp({
      clock: new TestClock(now),
      env: YEAR_LONG_SESSIONS,
    });
    seller = await signInSeller(app);
    other = await signInSeller(app);
    widgetId = (await insertPackage(app, seller.user.id, 'acme/widget')).id;
    gadgetId = (await insertPackage(app, seller.user.id, 'acme/gadget')).id;
    foreignPackageId = (await insertPackage(app, other.user.id, 'other/tool')).id;

    for (const email of ['alice@example.com', 'bob@example.com', 'carol@example.com', 'dave@example.com']) {
      holders[email] = await insertHolder(seller.user.id, email);
    }
    // Chosen by a stranger: a spreadsheet must not run it.
    holders['=cmd|calc@example.com'] = await insertHolder(seller.user.id, '=cmd|calc@example.com');
    grantIds.aliceWidget = await insertGrant(holders['alice@example.com']!, widgetId, { expiresAt: null });
    grantIds.aliceGadget = await insertGrant(holders['alice@example.com']!, gadgetId, { expiresAt: null });
    grantIds.bobWidget = await insertGrant(holders['bob@example.com']!, widgetId, {
      expiresAt: new Date(now.getTime() + 30 * DAY_MS),
    });
    grantIds.carolWidget = await insertGrant(holders['carol@example.com']!, widgetId, { expiresAt: null });
    grantIds.daveGadget = await insertGrant(holders['dave@example.com']!, gadgetId, { expiresAt: null });
    grantIds.formulaWidget = await insertGrant(holders['=cmd|calc@example.com']!, widgetId, { expiresAt: null });
    const otherHolder = await insertHolder(other.user.id, 'alice@example.com');
    const otherGrant = await insertGrant(otherHolder, foreignPackageId, { expiresAt: null });

    const row = (grant: string, packageId: string, version: string, at: Date, clientNetwork: string | null = null) => ({
      grantId: grantIds[grant] ?? grant,
      packageId,
      version,
      downloadedAt: at,
      clientNetwork,
    });
    // One multi-row statement (the rollup trigger aggregates it), spread over more than a year.
    await app.ctx.db
      .insert(downloads)
      .values([
        row('aliceWidget', widgetId, '1.0.0', daysAgo(400)),
        row('aliceWidget', widgetId, '1.0.0', daysAgo(200)),
        row('aliceWidget', widgetId, '1.2.0', daysAgo(80)),
        row('aliceWidget', widgetId, '2.0.0', daysAgo(20)),
        row('aliceGadget', gadgetId, '0.9.0', daysAgo(20)),
        row('aliceGadget', gadgetId, '0.9.0', daysAgo(20, 23)),
        row('bobWidget', widgetId, '1.2.0', daysAgo(250)),
        row('bobWidget', widgetId, '1.2.0', daysAgo(9)),
        row('carolWidget', widgetId, '1.0.0', daysAgo(100)),
        row('formulaWidget', widgetId, 'v2.0.0', daysAgo(3)),
        row(otherGrant, foreignPackageId, '1.0.0', daysAgo(1)),
      ]);
    // And through the dist path's own function, one statement each, with client addresses: Alice's token is used
    // from three networks on one day (two addresses share a /24), Bob's from two.
    const record = async (grant: string, version: string, address: string) => {
      expect(await recordDownload(app.ctx, grantIds[grant]!, version, address)).toBe(true);
    };
    app.clock.set(daysAgo(2, 9));
    await record('aliceWidget', '2.1.0', '203.0.113.10');
    await record('aliceWidget', '2.1.0', '203.0.113.99');
    await record('aliceGadget', '1.0.0', '198.51.100.7');
    await record('aliceWidget', '2.1.0', '2001:db8:aaaa:1::5');
    await record('bobWidget', '1.2.0', '192.0.2.1');
    await record('bobWidget', '1.3.0', '::ffff:192.0.3.1');
    app.clock.set(now);
    await record('carolWidget', '1.1.0', '192.0.2.200');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('draws downloads per day that equal the rows counted, for all packages, one package and one holder', async () => {
    const all = await countedByDay(sql`p.owner_id = ${seller.user.id}`);
    const series = await getJson<DownloadSeries>(seller.client, '/api/analytics/downloads?period=90&bucket=day');
    expect(series).toMatchObject({ period: '90', bucket: 'day', from: '2025-12-16', to: '2026-03-15' });
    expect(series.points).toHaveLength(90);
    expect(seriesMap(series)).toEqual(inPeriod(all, '2025-12-16'));
    expect(series.total).toBe(sum(inPeriod(all, '2025-12-16').values()));
    expect(series.total).toBe(13);

    const widget = await getJson<DownloadSeries>(
      seller.client,
      `/api/analytics/downloads?period=365&packageId=${widgetId}`,
    );
    expect(seriesMap(widget)).toEqual(inPeriod(await countedByDay(sql`p.id = ${widgetId}`), widget.from));

    const alice = await getJson<DownloadSeries>(
      seller.client,
      '/api/analytics/downloads?period=30&holder=ALICE@example.com',
    );
    expect(alice.holder).toBe('alice@example.com');
    const aliceRows = await countedByDay(sql`c.id = ${holders['alice@example.com']!}`);
    expect(seriesMap(alice)).toEqual(inPeriod(aliceRows, alice.from));
    expect(alice.total).toBe(7);

    const aliceGadget = await getJson<DownloadSeries>(
      seller.client,
      `/api/analytics/downloads?period=30&holder=alice@example.com&packageId=${gadgetId}`,
    );
    expect(aliceGadget.total).toBe(3);
  });

  it('sums weeks to the same total as days', async () => {
    const days = await getJson<DownloadSeries>(seller.client, '/api/analytics/downloads?period=365&bucket=day');
    const weeks = await getJson<DownloadSeries>(seller.client, '/api/analytics/downloads?period=365&bucket=week');
    expect(weeks.total).toBe(days.total);
    expect(weeks.points.length).toBe(53);
    expect(sum(weeks.points.map((point) => point.downloads))).toBe(days.total);
  });

  it('shows the Dashboard figures the charts show', async () => {
    const dashboard = await getJson<DashboardAnalytics>(seller.client, '/api/analytics/dashboard');
    const counted = await countedByDay(sql`p.owner_id = ${seller.user.id}`);
    expect(dashboard.totalDownloads).toBe(sum(counted.values()));
    const year = await getJson<DownloadSeries>(seller.client, '/api/analytics/downloads?period=365');
    // One download is older than a year: the all-time card counts it, the 365-day chart does not.
    expect(dashboard.totalDownloads).toBe(year.total + 1);
    const march = year.points.filter((point) => point.start >= '2026-03-01');
    expect(dashboard.monthlyUsage).toBe(sum(march.map((point) => point.downloads)));
    expect(dashboard.monthlyUsage).toBe(9);
  });

  it('lists the version each holder downloaded last, per package, and who is still on 1.x', async () => {
    const adoption = await getJson<VersionAdoption>(seller.client, '/api/analytics/versions');
    const widget = adoption.packages.find((entry) => entry.packageName === 'acme/widget');
    expect(widget?.versions).toEqual([
      { version: '2.1.0', line: '2.x', holders: 1 },
      { version: 'v2.0.0', line: '2.x', holders: 1 },
      { version: '1.3.0', line: '1.x', holders: 1 },
      { version: '1.1.0', line: '1.x', holders: 1 },
    ]);
    expect(adoption.holders).toEqual([]);
    const widgetHolders = await getJson<VersionAdoption>(
      seller.client,
      `/api/analytics/versions?packageId=${widgetId}`,
    );
    const onOneX = widgetHolders.holders.filter((holder) => holder.line === '1.x');
    expect(onOneX.map((holder) => holder.email).sort()).toEqual(['bob@example.com', 'carol@example.com']);

    const counted = (await app.ctx.db.execute(sql`
      select distinct on (d.grant_id) d.grant_id, d.version from ${downloads} d
      where d.package_id = ${widgetId}
      order by d.grant_id, d.downloaded_at desc, d.id desc`)) as unknown as { rows: { version: string }[] };
    expect(widgetHolders.holders.map((holder) => holder.version).sort()).toEqual(
      counted.rows.map((row) => row.version).sort(),
    );

    const gadgetOnly = await getJson<VersionAdoption>(seller.client, `/api/analytics/versions?packageId=${gadgetId}`);
    expect(gadgetOnly.packages.map((entry) => entry.packageName)).toEqual(['acme/gadget']);
  });

  it('ranks holders by downloads in the period, equal to the rows counted', async () => {
    const top = await getJson<TopHolders>(seller.client, '/api/analytics/top-holders?period=30');
    const counted = (await app.ctx.db.execute(sql`
      select c.email, count(*)::int as n from ${downloads} d join ${grants} g on g.id = d.grant_id
      join ${customers} c on c.id = g.customer_id
      where c.seller_id = ${seller.user.id} and d.downloaded_at >= ${'2026-02-14T00:00:00Z'}
      group by c.email order by n desc, c.email`)) as unknown as { rows: { email: string; n: number }[] };
    expect(top.map((row) => [row.email, row.downloads])).toEqual(counted.rows.map((row) => [row.email, Number(row.n)]));
    expect(top[0]).toMatchObject({ email: 'alice@example.com', downloads: 7, packages: 2 });
    expect(top[0]?.lastDownloadAt).toBe(daysAgo(2, 9).toISOString());

    const one = await getJson<TopHolders>(seller.client, '/api/analytics/top-holders?period=365&limit=1');
    expect(one).toHaveLength(1);
  });

  it('lists live licenses whose holder has not updated in N months, or never downloaded', async () => {
    const stale = await getJson<StaleHolders>(seller.client, '/api/analytics/stale-holders?months=1');
    expect(stale.map((row) => [row.email, row.packageName, row.version])).toEqual([
      ['dave@example.com', 'acme/gadget', null],
    ]);
    app.clock.set(new Date(now.getTime() + 45 * DAY_MS));
    try {
      const later = await getJson<StaleHolders>(seller.client, '/api/analytics/stale-holders?months=1');
      // Bob's license has expired by then: no longer a holder to chase.
      expect(later.map((row) => [row.email, row.packageName])).toEqual([
        ['dave@example.com', 'acme/gadget'],
        ['=cmd|calc@example.com', 'acme/widget'],
        ['alice@example.com', 'acme/gadget'],
        ['alice@example.com', 'acme/widget'],
        ['carol@example.com', 'acme/widget'],
      ]);
    } finally {
      app.clock.set(now);
    }
  });

  it('shows a token used from many networks in a day, from stored networks, never addresses', async () => {
    const signal = await getJson<SharingSignal>(seller.client, '/api/analytics/sharing?period=30');
    expect(signal).toEqual([
      {
        email: 'alice@example.com',
        day: '2026-03-13',
        networks: ['198.51.100.0/24', '2001:db8:aaaa::/48', '203.0.113.0/24'],
        downloads: 4,
      },
    ]);
    const two = await getJson<SharingSignal>(seller.client, '/api/analytics/sharing?period=30&minNetworks=2');
    expect(two.map((row) => [row.email, row.networks.length])).toEqual([
      ['alice@example.com', 3],
      ['bob@example.com', 2],
    ]);
    const stored = (await app.ctx.db.execute(
      sql`select distinct client_network from ${downloads} where client_network is not null`,
    )) as unknown as { rows: { client_network: string }[] };
    for (const { client_network } of stored.rows) expect(client_network).toMatch(/\/(24|48)$/);
  });

  it('exports each table as CSV with correct escaping', async () => {
    const response = await seller.client.get('/api/analytics/export/top-holders?period=30');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toBe(
      'attachment; filename="top-holders-30-days-2026-03-15.csv"',
    );
    const bytes = Buffer.from(await response.arrayBuffer());
    // A UTF-8 byte order mark first, so that spreadsheets read accents right.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('email,downloads,packages,last_download_at');
    expect(lines[1]).toBe(`alice@example.com,7,2,${daysAgo(2, 9).toISOString()}`);
    expect(lines).toContain(`'=cmd|calc@example.com,1,1,${daysAgo(3).toISOString()}`);

    const days = await (await seller.client.get('/api/analytics/export/downloads?period=30&bucket=week')).text();
    expect(days.split('\r\n')[0]).toBe('week_start,downloads');
    for (const table of ['versions', 'stale-holders', 'sharing']) {
      const answer = await seller.client.get(`/api/analytics/export/${table}`);
      expect(answer.status, table).toBe(200);
    }
    const sharing = await (await seller.client.get('/api/analytics/export/sharing?minNetworks=2')).text();
    expect(sharing).toContain('alice@example.com,2026-03-13,3,4,198.51.100.0/24 2001:db8:aaaa::/48 203.0.113.0/24');

    const invalid = await seller.client.get('/api/analytics/export/top-holders?period=7');
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).code).toBe('VALIDATION_FAILED');
  });

  it('keeps each seller to their own figures', async () => {
    const foreign = await seller.client.get(`/api/analytics/downloads?packageId=${foreignPackageId}`);
    expect(foreign.status).toBe(404);
    const theirs = await getJson<DownloadSeries>(other.client, '/api/analytics/downloads?period=30');
    expect(theirs.total).toBe(1);
    const unknownHolder = await other.client.get('/api/analytics/downloads?holder=bob@example.com');
    expect(unknownHolder.status).toBe(404);
    expect(await getJson<TopHolders>(other.client, '/api/analytics/top-holders')).toEqual([
      expect.objectContaining({ email: 'alice@example.com', downloads: 1 }),
    ]);
    const anonymous = await new TestClient(app.baseUrl).get('/api/analytics/downloads');
    expect(anonymous.status).toBe(401);
    const badPeriod = await seller.client.get('/api/analytics/downloads?period=7');
    expect(badPeriod.status).toBe(400);
  });

  it('limits the listed tables in their stated order', async () => {
    const sharing = await getJson<SharingSignal>(seller.client, '/api/analytics/sharing?minNetworks=2&limit=1');
    expect(sharing.map((row) => row.email)).toEqual(['alice@example.com']);
    const stale = await getJson<StaleHolders>(seller.client, '/api/analytics/stale-holders?months=1&limit=1');
    expect(stale.map((row) => row.email)).toEqual(['dave@example.com']);
    const tooMany = await seller.client.get('/api/analytics/sharing?limit=1001');
    expect(tooMany.status).toBe(400);
  });

  it('counts a download in its UTC day at both edges of a period, and the top holders equal the rows', async () => {
    // The last instant before the 30-day period (2026-02-14 to 2026-03-15) and its first one.
    await app.ctx.db.insert(downloads).values(
      ['2026-02-13T23:59:59.999Z', '2026-02-14T00:00:00.000Z'].map((at) => ({
        grantId: grantIds.daveGadget!,
        packageId: gadgetId,
        version: '1.0.0',
        downloadedAt: new Date(at),
      })),
    );
    const month = await getJson<DownloadSeries>(
      seller.client,
      '/api/analytics/downloads?period=30&holder=dave@example.com',
    );
    expect(month.from).toBe('2026-02-14');
    expect(month.total).toBe(1);
    expect(month.points[0]).toEqual({ start: '2026-02-14', downloads: 1 });
    const year = await getJson<DownloadSeries>(
      seller.client,
      '/api/analytics/downloads?period=365&holder=dave@example.com',
    );
    expect(seriesMap(year)).toEqual(
      new Map([
        ['2026-02-13', 1],
        ['2026-02-14', 1],
      ]),
    );

    for (const [period, from] of [
      ['30', '2026-02-14'],
      ['365', '2025-03-16'],
    ] as const) {
      const top = await getJson<TopHolders>(seller.client, `/api/analytics/top-holders?period=${period}&limit=100`);
      const counted = (await app.ctx.db.execute(sql`
        select c.email, count(*)::int as n from ${downloads} d join ${grants} g on g.id = d.grant_id
        join ${customers} c on c.id = g.customer_id
        where c.seller_id = ${seller.user.id} and d.downloaded_at >= ${`${from}T00:00:00Z`}
          and d.downloaded_at < ${'2026-03-16T00:00:00Z'}
        group by c.email order by n desc, c.email`)) as unknown as { rows: { email: string; n: number }[] };
      expect(
        top.map((row) => [row.email, row.downloads]),
        period,
      ).toEqual(counted.rows.map((row) => [row.email, Number(row.n)]));
    }
    // The running totals behind them, after inserts in and out of day order: each equals the rows up to its day.
    const wrong = (await app.ctx.db.execute(sql`
      select count(*)::int as n from download_holder_days t
      where t.running_downloads <> (select count(*) from ${downloads} d join ${grants} g on g.id = d.grant_id
        where g.customer_id = t.customer_id and (d.downloaded_at at time zone 'UTC')::date <= t.day)`)) as unknown as {
      rows: { n: number }[];
    };
    expect(Number(wrong.rows[0]?.n)).toBe(0);
  });

  it('answers the same numbers through API v1 with analytics:read', async () => {
    const create = async (permissions: string[]) => {
      const response = await seller.client.post('/api/developer/tokens', { name: permissions.join(' '), permissions });
      expect(response.status).toBe(201);
      return ((await response.json()) as CreatedApiToken).token;
    };
    const token = await create(['analytics:read']);
    const call = (path: string, bearer = token) =>
      fetch(new URL(path, app.baseUrl), { headers: { authorization: `Bearer ${bearer}` } });
    for (const [path, sessionPath] of [
      ['/api/v1/analytics/downloads?period=90&bucket=week', '/api/analytics/downloads?period=90&bucket=week'],
      ['/api/v1/analytics/versions', '/api/analytics/versions'],
      ['/api/v1/analytics/top-holders?period=365', '/api/analytics/top-holders?period=365'],
      ['/api/v1/analytics/stale-holders?months=2', '/api/analytics/stale-holders?months=2'],
      ['/api/v1/analytics/sharing?minNetworks=2', '/api/analytics/sharing?minNetworks=2'],
    ] as const) {
      const response = await call(path);
      expect(response.status, path).toBe(200);
      const body = (await response.json()) as { success: boolean; data: unknown };
      expect(body.success).toBe(true);
      expect(body.data, path).toEqual(await getJson(seller.client, sessionPath));
    }
    const without = await call('/api/v1/analytics/downloads', await create(['packages:read']));
    expect(without.status).toBe(403);
  });
});
