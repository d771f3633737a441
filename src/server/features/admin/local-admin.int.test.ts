import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import { LOCAL_ADMIN_ADMINS_PATH, type LocalAdminChannelFile } from '../../../contract/local-admin.js';
import { localAdminChannelPath, readLocalAdminChannel } from './local-admin.service.js';

// The first admin while the server runs (issue 12): PGlite allows one process, so `npm run admin` asks the running
// server over a loopback channel whose address and secret the server keeps in DATA_DIR/local-admin.json.

const execFileAsync = promisify(execFile);
const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

let app: TestApp;
let channel: LocalAdminChannelFile;

beforeAll(async () => {
  app = await startTestApp();
  const found = readLocalAdminChannel(app.dataDir);
  if (!found) throw new Error('the server wrote no local admin channel');
  channel = found;
});

afterAll(async () => {
  await app?.close();
});

const adminsUrl = () => new URL(LOCAL_ADMIN_ADMINS_PATH, channel.url);

function createAdmin(email: string, headers: Record<string, string> = {}) {
  return fetch(adminsUrl(), {
    method: 'POST',
    headers: { authorization: `Bearer ${channel.secret}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email }),
  });
}

/** Runs `npm run admin -- …` as a newcomer would, against this app's data folder and no DATABASE_URL. */
async function runAdminCommand(...args: string[]) {
  const environment: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATA_DIR: app.dataDir,
    PUBLIC_URL: app.baseUrl,
  };
  const tsx = path.join(repositoryRoot, 'node_modules/.bin/tsx');
  return execFileAsync(tsx, [path.join(repositoryRoot, 'scripts/admin.ts'), ...args], {
    // No .env of the checkout: the command must find the server through the data folder alone.
    cwd: app.dataDir,
    env: environment,
    timeout: 60_000,
  });
}

describe('the local admin channel', () => {
  it('is published in the data folder, readable by its owner only, with the loopback address the server listens on', () => {
    expect(channel.url).toBe(app.baseUrl);
    expect(statSync(localAdminChannelPath(app.dataDir)).mode & 0o777).toBe(0o600);
  });

  it('makes the first admin while the server runs, and says so again without a second account', async () => {
    const created = await createAdmin('first-admin@example.com');
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ outcome: 'created', admin: { email: 'first-admin@example.com' } });
    const again = await createAdmin('first-admin@example.com');
    expect(await again.json()).toMatchObject({ outcome: 'unchanged' });

    const listed = await fetch(adminsUrl(), { headers: { authorization: `Bearer ${channel.secret}` } });
    const admins = (await listed.json()) as { email: string }[];
    expect(admins.filter((admin) => admin.email === 'first-admin@example.com')).toHaveLength(1);
  });

  it('promotes an existing seller', async () => {
    const seller = await signInSeller(app, { email: 'seller-to-admin@example.com' });
    const promoted = await createAdmin('seller-to-admin@example.com');
    expect(await promoted.json()).toMatchObject({ outcome: 'promoted', admin: { id: seller.user.id } });
    const me = (await (await seller.client.get('/api/auth/user')).json()) as { userType?: string } | null;
    expect(me?.userType).toBe('admin');
  });

  it('refuses a request without the secret, with a wrong one, or one forwarded by a proxy', async () => {
    const anonymous = await fetch(adminsUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'intruder@example.com' }),
    });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const wrong = await fetch(adminsUrl(), { headers: { authorization: `Bearer ${'x'.repeat(43)}` } });
    expect(wrong.status).toBe(401);
    const forwarded = await createAdmin('intruder@example.com', { 'x-forwarded-for': '203.0.113.9' });
    expect(forwarded.status).toBe(403);
    expect(await forwarded.json()).toMatchObject({ code: 'FORBIDDEN' });

    const listed = await fetch(adminsUrl(), { headers: { authorization: `Bearer ${channel.secret}` } });
    expect(JSON.stringify(await listed.json())).not.toContain('intruder@example.com');
  });

  it('lets `npm run admin -- create` and `list` work while the server runs', async () => {
    const created = await runAdminCommand('create', 'command-admin@example.com');
    expect(created.stdout).toContain('Created the admin account command-admin@example.com');
    const listed = await runAdminCommand('list');
    expect(listed.stdout).toContain('command-admin@example.com');
  }, 120_000);

  it('removes the channel file when the server stops', async () => {
    const other = await startTestApp();
    const file = localAdminChannelPath(other.dataDir);
    expect(existsSync(file)).toBe(true);
    await other.app.close();
    expect(existsSync(file)).toBe(false);
    await other.close();
  });
});
