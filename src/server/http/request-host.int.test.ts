import { beforeAll, describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  type FixtureHolder,
  type FixturePackage,
} from '../../../test/composer/repository-fixtures.js';
import { mailsTo } from '../../../test/support/outbox.js';
import { sendRaw } from '../../../test/support/raw-http.js';
import { sellerRepositoryAroundTests } from '../../../test/support/seller-repository.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { apiErrorSchema } from '../../contract/errors.js';

// Issue 28, item 1: the portal's sign-in e-mail was built from the request's Host, and `Host: {seller host}:{port}@evil`
// counted as the seller's host, so Packgate mailed a holder a genuine link that led to the attacker. A Host that is
// not `hostname[:port]` is now refused at the edge, and every absolute URL comes from configuration.

const ACME_HOST = 'acme.composer.localhost';

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** One request with exactly these headers (Host included), over a real socket, as an attacker's client sends it. */
async function send(app: TestApp, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const lines = [`${method} ${path} HTTP/1.1`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  if (body !== undefined) lines.push('Content-Type: application/json');
  const answer = await sendRaw(app.port, lines.join('\r\n'), body === undefined ? '' : JSON.stringify(body));
  return { status: answer.status, headers: answer.headers, body: answer.body } satisfies Answer;
}

/** A portal browser's CSRF token and cookie, fetched on `host` as a browser there would. */
async function portalCsrf(app: TestApp, host: string, extra: Record<string, string> = {}) {
  const answer = await send(app, 'GET', '/api/csrf-token', { Host: host, ...extra });
  const cookie = String(answer.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  const csrfToken = answer.status === 200 ? (JSON.parse(answer.body) as { csrfToken: string }).csrfToken : '';
  return { answer, headers: { Cookie: cookie, 'X-CSRF-Token': csrfToken } };
}

function expectErrorShape(answer: Answer, status: number): void {
  expect(answer.status).toBe(status);
  expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
  const parsed = apiErrorSchema.parse(JSON.parse(answer.body));
  expect(parsed.status).toBe(status);
}

function portalLinksIn(body: string): URL[] {
  return [...body.matchAll(/https?:\/\/\S+\/portal\?token=[A-Za-z0-9_%-]+/g)].map((match) => new URL(match[0]));
}

describe('the Host header at the edge', () => {
  const repository = sellerRepositoryAroundTests('acme');
  let widget: FixturePackage;

  beforeAll(async () => {
    widget = await createPackage(repository.app, repository.seller, 'acme/widget', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
  });

  async function licensedHolder(email: string): Promise<FixtureHolder> {
    const holder = await createHolder(repository.app, repository.seller, email);
    await createGrant(repository.app, holder, widget);
    return holder;
  }

  it("refuses a portal sign-in whose Host hides another host behind the seller's, and mails nothing", async () => {
    const holder = await licensedHolder('victim@example.com');
    const evilHost = `${ACME_HOST}:${repository.app.port}@evil.example`;
    const csrf = await portalCsrf(repository.app, evilHost);
    expectErrorShape(csrf.answer, 400);
    const asked = await send(
      repository.app,
      'POST',
      '/api/portal/sign-in',
      { Host: evilHost, ...csrf.headers },
      { email: holder.email },
    );
    expectErrorShape(asked, 400);
    expect(JSON.parse(asked.body).message).toMatch(/host/i);
    expect(mailsTo(repository.app.dataDir, holder.email)).toEqual([]);
  });

  it('refuses Hosts that are not hostname[:port] before any route, in the error shape', async () => {
    for (const host of [
      `${ACME_HOST}:${repository.app.port}@evil.example`,
      `user@${ACME_HOST}`,
      `${ACME_HOST}/portal`,
      `${ACME_HOST}:1:2`,
      `${ACME_HOST}:0`,
      `${ACME_HOST}:65536`,
      `${ACME_HOST}:http`,
      `${ACME_HOST}:`,
      `acme..composer.localhost`,
      `${'a'.repeat(64)}.composer.localhost`,
      `${'abcdefghi.'.repeat(26)}composer.localhost`,
      'bücher.composer.localhost',
      '[::1',
      '[fe80::1%25eth0]',
    ]) {
      const paths = [
        '/api/portal/session',
        '/api/csrf-token',
        '/api/v1/packages',
        '/packages.json',
        '/socket.io/?EIO=4',
      ];
      for (const path of paths) {
        const answer = await send(repository.app, 'GET', path, { Host: host, Authorization: 'Bearer pgc_x' });
        // Node's own parser may refuse a header before the app sees it; it answers in the error shape too.
        expectErrorShape(answer, 400);
      }
    }
  });

  it('accepts hostname[:port] in any case, with a trailing dot, and IPv6 literals', async () => {
    for (const host of [
      `${ACME_HOST}:${repository.app.port}`,
      `ACME.Composer.Localhost.:${repository.app.port}`,
      `xn--bcher-kva.example:${repository.app.port}`,
      `[::1]:${repository.app.port}`,
      '[::1]',
      '127.0.0.1',
    ]) {
      const answer = await send(repository.app, 'GET', '/api/csrf-token', { Host: host });
      expect(answer.status, host).toBe(200);
    }
  });

  it('e-mails the portal link on the configured URL, whatever port, case or X-Forwarded-Host the request names', async () => {
    const holder = await licensedHolder('holder@example.com');
    // Without TRUST_PROXY X-Forwarded-Host counts for nothing; the port the client wrote is not the app's either.
    for (const host of [`${ACME_HOST}:1`, `ACME.composer.localhost.:${repository.app.port}`]) {
      const extra = { 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' };
      const csrf = await portalCsrf(repository.app, host, extra);
      const asked = await send(
        repository.app,
        'POST',
        '/api/portal/sign-in',
        { Host: host, ...extra, ...csrf.headers },
        { email: holder.email },
      );
      expect(asked.status, asked.body).toBe(200);
    }
    const mails = mailsTo(repository.app.dataDir, holder.email);
    expect(mails).toHaveLength(2);
    for (const mail of mails) {
      const links = portalLinksIn(mail.body);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links) expect(link.origin).toBe(`http://${ACME_HOST}:${repository.app.port}`);
    }
  });

  it("names dist URLs by the seller's configured repository URL, not by the request's Host", async () => {
    const holder = await licensedHolder('composer@example.com');
    const answer = await send(repository.app, 'GET', '/p2/acme/widget.json', {
      Host: `ACME.composer.localhost.:1`,
      Authorization: `Bearer ${holder.token}`,
    });
    expect(answer.status).toBe(200);
    const file = JSON.parse(answer.body) as { packages: Record<string, Array<{ dist: { url: string } }>> };
    const urls = (file.packages['acme/widget'] ?? []).map((version) => version.dist.url);
    expect(urls).toEqual([`http://${ACME_HOST}:${repository.app.port}/api/composer/download/acme/widget/v1.0.0`]);
  });
});

describe('X-Forwarded-Host behind a trusted proxy', () => {
  const repository = sellerRepositoryAroundTests('acme', { env: { TRUST_PROXY: '127.0.0.1' } });

  it('passes the same parser as Host', async () => {
    const refused = await send(repository.app, 'GET', '/api/portal/session', {
      Host: 'internal-name',
      'X-Forwarded-Host': `${ACME_HOST}:443@evil.example`,
    });
    expectErrorShape(refused, 400);
    const accepted = await send(repository.app, 'GET', '/api/portal/session', {
      Host: 'internal-name',
      'X-Forwarded-Host': ACME_HOST,
    });
    expect(accepted.status).toBe(200);
  });
});
