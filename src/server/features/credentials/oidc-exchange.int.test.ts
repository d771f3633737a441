import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runComposer } from '../../../../test/composer/composer-cli.js';
import {
  createGrant,
  createHolder,
  createPackage,
  createSeller,
  type FixtureHolder,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { type FakeOidcIssuer, startFakeOidcIssuer } from '../../../../test/fakes/oidc-issuer.js';
import { type SignedIn, signIn } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import { githubActionsScript } from '../../../contract/oidc-ci-steps.js';
import { OIDC_EXCHANGE_PATH } from '../../../contract/oidc-trusts.js';
import { setupCommands } from '../../../contract/setup-commands.js';
import { holderTokens, oidcTokenUses } from '../../db/schema/index.js';
import { hostUrl } from '../../http/public-urls.js';

// CI without a stored secret (issue 32 item 3): a CI job's OIDC token, signed by a test issuer on loopback, is
// traded on the seller's repository host for a read-only Composer token that installs with the real composer and
// stops working after 30 minutes; every wrong token is refused with a clear message and writes nothing.

const execFileAsync = promisify(execFile);
const HOST = 'acme.composer.localhost';
const AUDIENCE = 'https://acme.composer.localhost';
const SUBJECT = 'repo:acme-customer/shop:ref:refs/heads/main';
const MINUTE = 60_000;

let app: TestApp;
let issuer: FakeOidcIssuer;
let seller: SignedIn;
let holder: FixtureHolder;
let work: string;

type Refusal = { error: string; message: string; status: number };

function exchange(token: string) {
  return requestOnHost(app, HOST, OIDC_EXCHANGE_PATH, { method: 'POST', body: JSON.stringify({ token }) });
}

/** A job token as the trusted pipeline gets it, at the app's time. */
function jobToken(claims: Record<string, unknown> = {}) {
  return issuer.sign({ aud: AUDIENCE, sub: SUBJECT, ...claims }, { now: app.clock.now() });
}

async function written(): Promise<{ tokens: number; uses: number }> {
  const [tokens] = await app.ctx.db.select({ n: count() }).from(holderTokens);
  const [uses] = await app.ctx.db.select({ n: count() }).from(oidcTokenUses);
  return { tokens: Number(tokens!.n), uses: Number(uses!.n) };
}

async function trust(issuerUrl: string, subject = SUBJECT) {
  const response = await seller.client.post(`/api/customers/${holder.id}/oidc-trusts`, {
    name: 'Shop pipeline',
    issuer: issuerUrl,
    audience: AUDIENCE,
    subject,
  });
  expect(response.status, await response.clone().text()).toBe(201);
}

async function expectRefused(token: string, status: number, message: RegExp): Promise<void> {
  const before = await written();
  const response = await exchange(token);
  expect(response.status, response.body.toString()).toBe(status);
  expect(jsonOf<Refusal>(response).message).toMatch(message);
  expect(response.body.toString()).not.toContain(token);
  expect(await written()).toEqual(before);
}

/** A project requiring acme/widget from the seller's repository, configured as the license e-mail says. */
function createProject(name: string): string {
  const project = path.join(work, name);
  mkdirSync(project, { recursive: true });
  const manifest = { name: 'holder/shop', type: 'project', repositories: { 'packagist.org': false }, require: {} };
  writeFileSync(path.join(project, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  return project;
}

async function installWith(token: string, name: string): Promise<{ code: number; output: string }> {
  const project = createProject(name);
  const home = path.join(work, `${name}-home`);
  const lines = setupCommands({
    repositoryUrl: hostUrl(app.ctx.config, HOST),
    sellerSlug: 'acme',
    packageName: 'acme/widget:1.1.0',
    token,
  });
  let last = { code: 0, output: '' };
  for (const line of lines) {
    last = await runComposer(project, line.split(' ').slice(1), { home, audit: false });
    if (last.code !== 0) return last;
  }
  return last;
}

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'packgate-oidc-'));
  issuer = await startFakeOidcIssuer();
  app = await startTestApp({ env: { OIDC_ALLOW_PRIVATE_ISSUERS: 'true' } });
  const acme = await createSeller(app, 'acme');
  seller = await signIn(app, { user: acme });
  const widget = await createPackage(app, acme, 'acme/widget', [
    { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    { version: 'v1.1.0', releasedAt: '2026-02-10T10:00:00Z' },
  ]);
  holder = await createHolder(app, acme);
  await createGrant(app, holder, widget);
  await trust(issuer.issuer);
});

afterAll(async () => {
  await app?.close();
  await issuer?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('the OIDC exchange', () => {
  it('trades a trusted job token for a 30-minute CI token that installs, then stops working', async () => {
    const response = await exchange(await jobToken());
    expect(response.status, response.body.toString()).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const answer = jsonOf<{ token: string; expiresAt: string }>(response);
    expect(new Date(answer.expiresAt).getTime()).toBe(app.clock.now().getTime() + 30 * MINUTE);
    const [row] = await app.ctx.db.select().from(holderTokens).where(eq(holderTokens.createdBy, 'oidc'));
    expect(row).toMatchObject({ customerId: holder.id, kind: 'ci', name: 'CI: Shop pipeline' });
    expect(row!.oidcTrustId).not.toBeNull();

    const installed = await installWith(answer.token, 'within-lifetime');
    expect(installed.code, installed.output).toBe(0);
    const lock = readFileSync(path.join(work, 'within-lifetime', 'composer.lock'), 'utf8');
    expect(lock).toContain('"version": "v1.1.0"');

    app.clock.advance(31 * MINUTE);
    const later = await requestOnHost(app, HOST, '/packages.json', { token: answer.token });
    expect(later.status).toBe(401);
    const refused = await installWith(answer.token, 'after-lifetime');
    expect(refused.code).not.toBe(0);
  });

  it('refuses the same job token a second time', async () => {
    const token = await jobToken();
    expect((await exchange(token)).status).toBe(200);
    await expectRefused(token, 401, /already been exchanged/);
  });

  it('refuses a wrong subject, audience or issuer, naming what does not match', async () => {
    await expectRefused(await jobToken({ sub: 'repo:someone/else:ref:refs/heads/main' }), 401, /subject .* matches no/);
    await expectRefused(await jobToken({ aud: 'https://elsewhere.example' }), 401, /audience .* is not the audience/);
    await expectRefused(
      await jobToken({ iss: 'https://token.actions.githubusercontent.com' }),
      401,
      /trusts CI identities from the issuer/,
    );
  });

  it('refuses expired and not-yet-valid tokens', async () => {
    const past = new Date(app.clock.now().getTime() - 10 * MINUTE);
    await expectRefused(await issuer.sign({ aud: AUDIENCE, sub: SUBJECT }, { now: past }), 401, /has expired/);
    const nbf = Math.floor(app.clock.now().getTime() / 1000) + 600;
    await expectRefused(await jobToken({ nbf, exp: nbf + 300 }), 401, /not valid yet/);
  });

  it('refuses unsigned tokens, HS256 signed with the public key, and foreign signatures', async () => {
    await expectRefused(issuer.signNone({ aud: AUDIENCE, sub: SUBJECT }, app.clock.now()), 401, /signed with none/);
    await expectRefused(issuer.signHmacWithPublicKey({ aud: AUDIENCE, sub: SUBJECT }, app.clock.now()), 401, /HS256/);
    const impostor = await startFakeOidcIssuer();
    // An EC key signing under the id of the issuer's RSA key: a key of the wrong type matches nothing.
    const wrongType = await startFakeOidcIssuer({ algorithm: 'ES256' });
    try {
      const forged = await impostor.sign({ iss: issuer.issuer, aud: AUDIENCE, sub: SUBJECT }, { now: app.clock.now() });
      await expectRefused(forged, 401, /No key published by/);
      const claims = { iss: issuer.issuer, aud: AUDIENCE, sub: SUBJECT };
      const mismatched = await wrongType.sign(claims, { now: app.clock.now(), kid: issuer.keyId() });
      await expectRefused(mismatched, 401, /No key published by .* matches the token's key id and algorithm/);
    } finally {
      await impostor.close();
      await wrongType.close();
    }
    await expectRefused('not.a.jwt', 401, /not a JWT/);
  });

  it('follows a key rotation, asking the issuer again at most once a minute', async () => {
    await issuer.rotate();
    const fetches = () => issuer.requests.get('/.well-known/jwks') ?? 0;
    const before = fetches();
    app.clock.advance(2 * MINUTE);
    expect((await exchange(await jobToken())).status).toBe(200);
    expect(fetches()).toBe(before + 1);
    await expectRefused(
      await issuer.sign({ aud: AUDIENCE, sub: SUBJECT }, { now: app.clock.now(), kid: 'made-up' }),
      401,
      /No key/,
    );
    expect(fetches()).toBe(before + 1);
  });

  it('answers only on a repository host', async () => {
    const response = await fetch(`${app.baseUrl}${OIDC_EXCHANGE_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: await jobToken() }),
    });
    expect(response.status).toBe(404);
  });

  it('refuses a body over 16 KB', async () => {
    await expectRefused('x'.repeat(20_000), 413, /./);
  });
});

describe("an issuer's keys that are slow or huge", () => {
  it('gives up on a slow issuer within the bound, and refuses a huge key set', async () => {
    const slow = await startFakeOidcIssuer();
    const huge = await startFakeOidcIssuer({ algorithm: 'ES256' });
    try {
      slow.keysMode = 'slow';
      huge.keysMode = 'huge';
      await trust(slow.issuer, 'repo:acme-customer/slow:*');
      await trust(huge.issuer, 'repo:acme-customer/huge:*');
      const started = performance.now();
      const token = await slow.sign(
        { aud: AUDIENCE, sub: 'repo:acme-customer/slow:ref:refs/heads/main' },
        { now: app.clock.now() },
      );
      await expectRefused(token, 401, /could not be fetched: The issuer did not answer in time/);
      // The issuer would answer after 10 s; the exchange gives up after 3.
      expect(performance.now() - started).toBeLessThan(8000);
      const big = await huge.sign(
        { aud: AUDIENCE, sub: 'repo:acme-customer/huge:ref:refs/heads/main' },
        { now: app.clock.now() },
      );
      await expectRefused(big, 401, /more than 64 KB/);
    } finally {
      await slow.close();
      await huge.close();
    }
  });
});

describe('the GitHub Actions steps', () => {
  it('run as written: the job token is traded and composer installs with the answer', async () => {
    issuer.requestClaims = { sub: SUBJECT };
    issuer.requestNow = () => app.clock.now();
    const home = path.join(work, 'actions-home');
    const project = createProject('actions');
    const repositoryUrl = hostUrl(app.ctx.config, HOST);
    for (const line of setupCommands({ repositoryUrl, sellerSlug: 'acme', packageName: 'x', token: 'x' }).slice(0, 2)) {
      expect((await runComposer(project, line.split(' ').slice(1), { home, audit: false })).code).toBe(0);
    }
    const script = githubActionsScript({ repositoryUrl, audience: AUDIENCE }).join('\n');
    await execFileAsync('bash', ['-c', `set -eo pipefail\n${script}`], {
      cwd: project,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        COMPOSER_HOME: path.join(home, 'composer-home'),
        ACTIONS_ID_TOKEN_REQUEST_URL: `${issuer.issuer}/github/token?api-version=2.0`,
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: issuer.requestToken,
      },
    });
    const run = await runComposer(project, ['require', 'acme/widget:1.1.0'], { home, audit: false });
    expect(run.code, run.output).toBe(0);
  });

  // Last: it removes the identity the other tests trade with.
  it('stops the tokens an identity minted as soon as the holder stops trusting it', async () => {
    const answer = jsonOf<{ token: string }>(await exchange(await jobToken()));
    expect((await requestOnHost(app, HOST, '/packages.json', { token: answer.token })).status).toBe(200);
    const listed = (await (await seller.client.get(`/api/customers/${holder.id}/oidc-trusts`)).json()) as {
      id: string;
    }[];
    for (const { id } of listed) {
      expect((await seller.client.delete(`/api/customers/${holder.id}/oidc-trusts/${id}`)).status).toBe(200);
    }
    expect((await requestOnHost(app, HOST, '/packages.json', { token: answer.token })).status).toBe(401);
  });
});
