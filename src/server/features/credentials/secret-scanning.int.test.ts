import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeSecretScanning, startFakeSecretScanning } from '../../../../test/fakes/github-secret-scanning.js';
import { readOutbox } from '../../../../test/support/outbox.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp, TestClock } from '../../../../test/support/test-app.js';
import type { AuditEvent } from '../../../contract/api-v1.js';
import type { CreatedApiToken } from '../../../contract/developer.js';
import { customers, holderTokens, users } from '../../db/schema/index.js';
import { HOUR_MS } from '../../lib/clock.js';
import { sha256Hex } from '../../lib/crypto.js';
import { findCustomerByToken } from '../licenses/grants.service.js';
import { issueHolderToken } from './holder-token-issue.js';

// GitHub's secret scanning partner program (issue 32 item 4): a signed report of a leaked token revokes it within the
// request (or marks it and keeps it 24 hours, as the seller chose), and the holder and the seller are e-mailed where
// it was found; a bad signature or an unknown token writes nothing.

const start = new Date('2026-06-01T09:00:00.000Z');
const LEAK_URL = 'https://github.com/octocat/shop/blob/abc123/auth.json';

describe('secret scanning', () => {
  let app: TestApp;
  let github: FakeSecretScanning;
  const clock = new TestClock(start);
  let seller: SignedIn;
  let holderId: string;

  async function report(body: string, headers: Record<string, string>) {
    const response = await fetch(new URL('/api/secret-scanning/github', app.baseUrl), {
      method: 'POST',
      headers,
      body,
    });
    return { status: response.status, text: await response.text() };
  }

  async function newToken(name: string) {
    return issueHolderToken(app.ctx, app.ctx.db, { customerId: holderId, name, kind: 'ci', createdBy: 'holder' });
  }

  const mailsAbout = (name: string) => readOutbox(app.dataDir).filter((mail) => mail.body.includes(`"${name}"`));

  /** The seller's audit events about one token, as API v1 lists them. */
  async function auditEventsAbout(tokenId: string): Promise<AuditEvent[]> {
    const created = await seller.client.post('/api/developer/tokens', { name: 'audit', permissions: ['tokens:read'] });
    const apiToken = ((await created.json()) as CreatedApiToken).token;
    const response = await fetch(new URL('/api/v1/audit-events', app.baseUrl), {
      headers: { authorization: `Bearer ${apiToken}` },
    });
    const events = ((await response.json()) as { data: AuditEvent[] }).data;
    return events.filter((event) => event.details.tokenId === tokenId);
  }

  beforeAll(async () => {
    github = await startFakeSecretScanning();
    app = await startTestApp({ clock, env: { SECRET_SCANNING_KEYS_URL: github.keysUrl } });
    seller = await signInSeller(app, { slug: 'acme', email: 'owner@acme.example' });
    const [holder] = await app.ctx.db
      .insert(customers)
      .values({ sellerId: seller.user.id, email: 'dev@shop.example' })
      .returning();
    holderId = holder!.id;
  });

  afterAll(async () => {
    await app?.close();
    await github?.close();
  });

  it('revokes a reported token within the request and e-mails the holder and the seller where it was found', async () => {
    const { token, row } = await newToken('GitHub Actions');
    expect(await findCustomerByToken(app.ctx, token)).toBeDefined();
    const body = JSON.stringify([{ token, type: 'packgate_composer_token', url: LEAK_URL, source: 'content' }]);
    const answer = await report(body, github.sign(body));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toEqual([
      { token_hash: sha256Hex(token), token_type: 'packgate_composer_token', label: 'true_positive' },
    ]);
    expect(answer.text).not.toContain(token);

    expect(await findCustomerByToken(app.ctx, token)).toBeUndefined();
    const [stored] = await app.ctx.db.select().from(holderTokens).where(eq(holderTokens.id, row.id));
    expect(stored).toMatchObject({ revokedAt: start, leakedAt: start, leakUrl: LEAK_URL });

    const [event, ...others] = await auditEventsAbout(row.id);
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      action: 'customer.token_leak_revoked',
      targetType: 'customer',
      targetId: holderId,
      actor: { type: 'session', member: null },
      details: {
        email: 'dev@shop.example',
        name: 'GitHub Actions',
        reportedBy: 'github_secret_scanning',
        url: LEAK_URL,
      },
      createdAt: start.toISOString(),
    });

    const mails = mailsAbout('GitHub Actions');
    expect(mails.map((mail) => mail.to).sort()).toEqual(['dev@shop.example', 'owner@acme.example']);
    for (const mail of mails) {
      expect(mail.body).toContain(LEAK_URL);
      expect(mail.body).toContain('It has been revoked and no longer works.');
      expect(mail.body).not.toContain(token);
    }
  });

  it("keeps a reported token 24 hours, marked leaked, when the seller chose 'mark'", async () => {
    const chosen = await seller.client.put('/api/settings/leaked-tokens', { leakedTokenAction: 'mark' });
    expect(chosen.status).toBe(200);
    expect(await (await seller.client.get('/api/settings/leaked-tokens')).json()).toEqual({
      leakedTokenAction: 'mark',
    });
    expect((await seller.client.put('/api/settings/leaked-tokens', { leakedTokenAction: 'ignore' })).status).toBe(400);
    const { token, row } = await newToken('Forge deploy');
    const body = JSON.stringify([{ token, type: 'packgate_composer_token', url: LEAK_URL, source: 'content' }]);
    expect((await report(body, github.sign(body))).status).toBe(200);

    const [stored] = await app.ctx.db.select().from(holderTokens).where(eq(holderTokens.id, row.id));
    expect(stored).toMatchObject({
      revokedAt: null,
      leakedAt: start,
      expiresAt: new Date(start.getTime() + 24 * HOUR_MS),
    });
    expect(await findCustomerByToken(app.ctx, token)).toBeDefined();
    expect(mailsAbout('Forge deploy')).toHaveLength(2);
    expect((await auditEventsAbout(row.id)).map((event) => [event.action, event.details.keptUntil])).toEqual([
      ['customer.token_leak_marked', new Date(start.getTime() + 24 * HOUR_MS).toISOString()],
    ]);
    clock.advance(24 * HOUR_MS + 1000);
    expect(await findCustomerByToken(app.ctx, token)).toBeUndefined();
    clock.set(start);
    await app.ctx.db.update(users).set({ leakedTokenAction: 'revoke' }).where(eq(users.id, seller.user.id));
  });

  it('labels unknown, malformed and foreign tokens false_positive and writes nothing', async () => {
    const { token } = await newToken('Untouched');
    const lookalike = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const unknown = 'pgc_abcdefghijklmnopqrstuvwxyzABCD1HANlA'; // a valid checksum, never issued
    const body = JSON.stringify([
      { token: lookalike, type: 'packgate_composer_token', url: LEAK_URL },
      { token: unknown, type: 'packgate_composer_token', url: LEAK_URL },
      { token: 'ghp_notours', type: 'packgate_composer_token' },
    ]);
    const before = await app.ctx.db.select().from(holderTokens);
    const outboxBefore = readOutbox(app.dataDir).length;
    const answer = await report(body, github.sign(body));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).map((entry: { label: string }) => entry.label)).toEqual([
      'false_positive',
      'false_positive',
      'false_positive',
    ]);
    expect(await app.ctx.db.select().from(holderTokens)).toEqual(before);
    expect(readOutbox(app.dataDir)).toHaveLength(outboxBefore);
    expect(await findCustomerByToken(app.ctx, token)).toBeDefined();
  });

  it('refuses a report signed by another key, with an unknown key id, or altered after signing, and writes nothing', async () => {
    const { token } = await newToken('Bot');
    const body = JSON.stringify([{ token, type: 'packgate_composer_token', url: LEAK_URL }]);
    const before = await app.ctx.db.select().from(holderTokens);
    const forged = await report(body, github.sign(body, { withKey: github.strangerKey }));
    expect(forged.status).toBe(401);
    expect(JSON.parse(forged.text).message).toContain('not signed by a key GitHub publishes');
    expect(forged.text).not.toContain(token);
    expect((await report(body, github.sign(body, { keyIdentifier: 'f'.repeat(64) }))).status).toBe(401);
    expect((await report(`${body} `, github.sign(body))).status).toBe(401);
    expect((await report(body, { 'content-type': 'application/json' })).status).toBe(401);
    expect(await app.ctx.db.select().from(holderTokens)).toEqual(before);
    expect(await findCustomerByToken(app.ctx, token)).toBeDefined();
  });

  it('answers 400 to a signed body that is not an array of reports', async () => {
    const body = '{"token": "x"}';
    const answer = await report(body, github.sign(body));
    expect(answer.status).toBe(400);
  });
});
