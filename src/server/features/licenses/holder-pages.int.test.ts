import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveTrial, insertPackage } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import type { Customer } from '../../../contract/licenses.js';
import { badCursorMessage } from '../../db/keyset-page.js';
import { holderPageMessages } from './holder-pages.service.js';

// Paged holder lists (issue 34 item 4): API v1's customers and licenses and Management's holders, a page at a time
// after a cursor, searched on the server. A few rows and a small limit stand for 100,000 holders.

const HOLDERS = ['ada', 'bea', 'cid', 'dot', 'eve', 'fay', 'gus'].map((name) => `${name}@example.com`);
/** Those who also hold the gadget: nine licenses in all. */
const GADGET_HOLDERS = ['bea@example.com', 'fay@example.com'];

describe('paged holder lists', () => {
  let app: TestApp;
  let seller: SignedIn;
  let token: CreatedApiToken;
  let gadgetId: string;

  async function v1(pathname: string) {
    const response = await fetch(new URL(pathname, app.baseUrl), {
      headers: { authorization: `Bearer ${token.token}` },
    });
    // biome-ignore lint/suspicious/noExplicitAny: the envelope, read field by field
    return { status: response.status, body: (await response.json()) as any };
  }

  /** Follows meta.nextCursor from the first page to the last, answering each page's data. */
  async function everyV1Page(pathname: string): Promise<{ email: string; id: string }[][]> {
    const pages: { email: string; id: string }[][] = [];
    let cursor: string | null = null;
    do {
      const answer = await v1(cursor ? `${pathname}&cursor=${encodeURIComponent(cursor)}` : pathname);
      expect(answer.status).toBe(200);
      pages.push(answer.body.data);
      cursor = answer.body.meta.nextCursor;
    } while (cursor && pages.length < 10);
    return pages;
  }

  async function management(pathname: string): Promise<{ status: number; body: unknown }> {
    const response = await seller.client.get(pathname);
    return { status: response.status, body: await response.json() };
  }

  beforeAll(async () => {
    app = await startTestApp();
    seller = await signInSeller(app, { slug: 'pager' });
    await giveTrial(app, seller.user.id);
    const widgetId = (await insertPackage(app, seller.user.id, 'pager/widget')).id;
    gadgetId = (await insertPackage(app, seller.user.id, 'pager/gadget')).id;
    const created = await seller.client.post('/api/developer/tokens', { name: 'pager', permissions: ['*'] });
    token = (await created.json()) as CreatedApiToken;
    for (const email of HOLDERS) {
      const packageIds = GADGET_HOLDERS.includes(email) ? [widgetId, gadgetId] : [widgetId];
      const issued = await fetch(new URL('/api/v1/licenses', app.baseUrl), {
        method: 'POST',
        headers: { authorization: `Bearer ${token.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ packageIds, email, sendEmail: false }),
      });
      expect(issued.status, await issued.clone().text()).toBe(201);
    }
  });

  afterAll(async () => {
    await app?.close();
  });

  it('gives API v1’s customers a page at a time, each once, the last page with a null cursor', async () => {
    const pages = await everyV1Page('/api/v1/customers?limit=3');
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    const emails = pages.flat().map((holder) => holder.email);
    expect([...emails].sort()).toEqual(HOLDERS);
    // The pages, joined, are the list in one page: newest holder first.
    const whole = await v1('/api/v1/customers?limit=500');
    expect(whole.body.data.map((holder: { email: string }) => holder.email)).toEqual(emails);
    expect(whole.body.meta).toMatchObject({ nextCursor: null, total: 7 });
  });

  it('gives API v1’s licenses a page at a time, also of one package', async () => {
    const pages = await everyV1Page('/api/v1/licenses?limit=4');
    expect(pages.map((page) => page.length)).toEqual([4, 4, 1]);
    expect(new Set(pages.flat().map((license) => license.id)).size).toBe(9);
    const gadgetPages = await everyV1Page(`/api/v1/licenses?limit=1&packageId=${gadgetId}`);
    expect(gadgetPages.map((page) => page.length)).toEqual([1, 1]);
    expect(
      gadgetPages
        .flat()
        .map((license) => license.email)
        .sort(),
    ).toEqual(GADGET_HOLDERS);
  });

  it('answers 100 rows when no limit is asked and refuses a limit above 500', async () => {
    const first = await v1('/api/v1/licenses');
    expect(first.body.data).toHaveLength(9);
    expect(first.body.meta.nextCursor).toBeNull();
    const tooMany = await v1('/api/v1/customers?limit=501');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
  });

  it('refuses a cursor it did not give with 400 in the error envelope', async () => {
    for (const path of ['/api/v1/customers', '/api/v1/licenses']) {
      for (const cursor of ['nonsense', Buffer.from('12_not-an-id').toString('base64url'), 'x'.repeat(101)]) {
        const answer = await v1(`${path}?cursor=${cursor}`);
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ success: false, code: 'VALIDATION_FAILED', status: 400 });
        if (cursor.length <= 100) expect(answer.body.message).toBe(badCursorMessage);
        expect(answer.body.requestId).toEqual(expect.any(String));
      }
    }
  });

  it('pages Management’s holders after the last one shown, with every grant of each', async () => {
    const first = await management('/api/customers?limit=3');
    expect(first.status).toBe(200);
    const firstPage = first.body as Customer[];
    expect(firstPage).toHaveLength(3);
    const seen = [...firstPage];
    let page = firstPage;
    while (page.length === 3) {
      page = (await management(`/api/customers?limit=3&after=${page.at(-1)!.id}`)).body as Customer[];
      seen.push(...page);
    }
    expect(page).toHaveLength(1);
    expect(seen.map((holder) => holder.email).sort()).toEqual(HOLDERS);
    // Both licenses were issued in one transaction (one created_at), so their order between them is by id.
    expect(
      seen
        .find((holder) => holder.email === 'fay@example.com')
        ?.grants.map((grant) => grant.packageName)
        .sort(),
    ).toEqual(['pager/gadget', 'pager/widget']);
    // Without a limit, one page of up to 100: these seven.
    expect(((await management('/api/customers')).body as Customer[]).map((holder) => holder.email)).toEqual(
      seen.map((holder) => holder.email),
    );
  });

  it('searches Management’s holders on the server by e-mail and by a held package’s name', async () => {
    const byPackage = (await management('/api/customers?q=GADGET')).body as Customer[];
    expect(byPackage.map((holder) => holder.email).sort()).toEqual(GADGET_HOLDERS);
    const byEmail = (await management('/api/customers?q=eve%40')).body as Customer[];
    expect(byEmail.map((holder) => holder.email)).toEqual(['eve@example.com']);
    // A LIKE wildcard in the search is a plain character.
    expect((await management('/api/customers?q=%25')).body).toEqual([]);
  });

  it('refuses an after that is no holder of the seller’s with 400 in the error shape', async () => {
    const unknown = await management('/api/customers?after=00000000-0000-4000-8000-000000000000');
    expect(unknown).toEqual({
      status: 400,
      body: expect.objectContaining({ status: 400, message: holderPageMessages.holderGone }),
    });
    const malformed = await management('/api/customers?after=nonsense');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ status: 400, error: expect.any(String) });
  });
});
