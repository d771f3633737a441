import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPackageRepository } from '../../../../../test/support/git-fixtures.js';
import { callApiV1 } from '../../../../../test/support/http-client.js';
import { giveTrial } from '../../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../../test/support/test-app.js';
import type { CreatedApiToken } from '../../../../contract/developer.js';
import type { TemporaryLicense } from '../../../../contract/licenses.js';
import { auditEvents, customers } from '../../../db/schema/index.js';
import { systemPrincipal } from '../../../http/principal.js';
import { replaceHolderToken } from '../../licenses/customers.service.js';
import { findCustomerByToken } from '../../licenses/grants.service.js';

// One home per use case (issue 29): the same change leaves the same audit event whichever door made it (the
// dashboard's session routes, API v1, the portal: see portal.int.test.ts), written in the change's transaction.

let app: TestApp;
let seller: SignedIn;
let apiToken: CreatedApiToken;

const v1 = (method: string, pathname: string, body?: unknown) =>
  callApiV1(app.baseUrl, apiToken.token, method, `/api/v1${pathname}`, body);

async function eventsFor(targetId: string) {
  return app.ctx.db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.userId, seller.user.id), eq(auditEvents.targetId, targetId)));
}

beforeAll(async () => {
  app = await startTestApp();
  const reposDir = path.join(app.dataDir, 'repos');
  for (const name of ['widget', 'gadget']) {
    await createPackageRepository(path.join(reposDir, 'acme', `${name}.git`), {
      name: `acme/${name}`,
      tags: ['v1.0.0'],
      bare: true,
    });
  }
  seller = await signInSeller(app);
  await giveTrial(app, seller.user.id);
  const created = await seller.client.post('/api/developer/tokens', { name: 'shop', permissions: ['*'] });
  expect(created.status).toBe(201);
  apiToken = (await created.json()) as CreatedApiToken;
});

afterAll(async () => {
  await app?.close();
});

describe('a package', () => {
  it('is package.created by the session from the dashboard and by the token from API v1', async () => {
    const fromDashboard = await seller.client.post('/api/repositories', {
      githubRepoId: 'acme/widget.git',
      packageName: 'acme/widget',
      description: '',
      isActive: true,
    });
    expect(fromDashboard.status).toBe(201);
    const dashboardPackage = (await fromDashboard.json()) as { id: string };
    const fromApi = await v1('POST', '/packages', { githubRepoId: 'acme/gadget.git', packageName: 'acme/gadget' });
    expect(fromApi.status).toBe(201);

    const [byDashboard] = await eventsFor(dashboardPackage.id);
    const [byApi] = await eventsFor(fromApi.body.data.id);
    expect(byDashboard).toMatchObject({
      action: 'package.created',
      actorType: 'session',
      actorTokenMasked: null,
      targetType: 'package',
      details: { name: 'acme/widget', repository: 'acme/widget' },
    });
    expect(byApi).toMatchObject({
      action: 'package.created',
      actorType: 'api_token',
      actorTokenMasked: `${apiToken.id.slice(0, 8)}…`,
      targetType: 'package',
      details: { name: 'acme/gadget', repository: 'acme/gadget' },
    });
  });

  it('is package.updated and package.deleted from the dashboard, as from API v1', async () => {
    const created = await v1('POST', '/packages', { githubRepoId: 'acme/widget.git', packageName: 'acme/widget2' });
    // The widget repository is a package already: API v1 answers the dashboard's refusal.
    expect(created.status).toBe(409);
    const [pkg] = (await (await seller.client.get('/api/repositories')).json()) as {
      id: string;
      packageName: string;
    }[];
    const updated = await seller.client.put(`/api/repositories/${pkg!.id}`, { description: 'Better widgets' });
    expect(updated.status).toBe(200);
    const deleted = await seller.client.delete(`/api/repositories/${pkg!.id}`);
    expect(deleted.status).toBe(200);

    const actions = (await eventsFor(pkg!.id)).map((event) => [event.action, event.actorType, event.details]);
    expect(actions).toContainEqual(['package.updated', 'session', { changed: ['description'] }]);
    expect(actions).toContainEqual(['package.deleted', 'session', { name: pkg!.packageName }]);
  });
});

describe('a temporary license', () => {
  it('is audited when issued and when revoked', async () => {
    const packageId = (await v1('GET', '/packages')).body.data[0].id as string;
    const issued = await seller.client.post(`/api/repositories/${packageId}/temporary-licenses`, {
      email: 'trial@example.com',
      durationDays: 7,
    });
    expect(issued.status).toBe(201);
    const license = (await issued.json()) as TemporaryLicense;
    const revoked = await seller.client.delete(`/api/repositories/${packageId}/temporary-licenses/${license.id}`);
    expect(revoked.status).toBe(200);

    const events = await eventsFor(license.id);
    expect(events.map((event) => event.action).sort()).toEqual(['license.created', 'license.revoked']);
    for (const event of events) {
      expect(event).toMatchObject({
        actorType: 'session',
        targetType: 'license',
        details: { kind: 'temporary', email: 'trial@example.com' },
      });
    }
  });
});

describe("a holder's token reset", () => {
  it('is customer.token_regenerated from the dashboard and from API v1, naming who acted', async () => {
    const [holder] = await app.ctx.db.select().from(customers).where(eq(customers.email, 'trial@example.com'));
    const fromDashboard = await seller.client.post('/api/customers/regenerate-token', { email: holder!.email });
    expect(fromDashboard.status).toBe(200);
    const fromApi = await v1('POST', '/customers/regenerate-token', { email: holder!.email, sendEmail: false });
    expect(fromApi.status).toBe(200);

    const events = (await eventsFor(holder!.id)).filter((event) => event.targetType === 'customer');
    expect(events.map((event) => [event.action, event.actorType, event.details])).toEqual(
      expect.arrayContaining([
        ['customer.token_regenerated', 'session', { email: holder!.email, emailSent: true, by: 'seller' }],
        ['customer.token_regenerated', 'api_token', { email: holder!.email, emailSent: false, by: 'seller' }],
      ]),
    );
    expect(events).toHaveLength(2);
  });

  it('leaves no event when the reset fails after the event was written: both are one transaction', async () => {
    const [holder] = await app.ctx.db.select().from(customers).where(eq(customers.email, 'trial@example.com'));
    const before = await eventsFor(holder!.id);
    // The token's e-mail goes out in the same transaction, after the event: a refused e-mail undoes both.
    const refusingMail = {
      ...app.ctx,
      mailer: { ...app.ctx.mailer, send: () => Promise.reject(new Error('refused')) },
    };
    await expect(
      replaceHolderToken(refusingMail, systemPrincipal(seller.user.id), holder!.email, { notify: true }),
    ).rejects.toThrow('refused');

    expect(await eventsFor(holder!.id)).toHaveLength(before.length);
    const [unchanged] = await app.ctx.db.select().from(customers).where(eq(customers.id, holder!.id));
    expect(unchanged!.tokenHash).toBe(holder!.tokenHash);
  });

  it('is written before the command returns, with the change it records', async () => {
    const [holder] = await app.ctx.db.select().from(customers).where(eq(customers.email, 'trial@example.com'));
    const before = await eventsFor(holder!.id);
    const replaced = await replaceHolderToken(app.ctx, systemPrincipal(seller.user.id), holder!.email, {
      notify: false,
    });
    expect((await findCustomerByToken(app.ctx, replaced.token))?.id).toBe(holder!.id);
    expect(await eventsFor(holder!.id)).toHaveLength(before.length + 1);
  });
});
