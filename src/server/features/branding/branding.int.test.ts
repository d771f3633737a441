import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { type FakeDns, startFakeDns } from '../../../../test/fakes/dns.js';
import { tinyPng } from '../../../../test/support/logo-fixtures.js';
import { lastMailTo } from '../../../../test/support/outbox.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, testAppAroundTests } from '../../../../test/support/test-app.js';
import {
  BRAND_COLOR_DEFAULTS,
  type BrandSettings,
  type PublicBrand,
  type VerifyDomainResponse,
} from '../../../contract/branding.js';
import { brandSettings, users } from '../../db/schema/index.js';

// Brand settings over HTTP: defaults, the round trip, validation, tenancy, the public brand of a package host,
// custom domains verified against a fake DNS server, and the brand in license e-mails.

const SETTINGS = '/api/user/default-branding';

let dns: FakeDns;
beforeAll(async () => {
  dns = await startFakeDns();
});
afterAll(async () => {
  await dns?.close();
});

const started = testAppAroundTests(() => ({ env: { DNS_SERVERS: dns.server } }));
let acme: SignedIn;
let globex: SignedIn;

beforeAll(async () => {
  acme = await signInSeller(started.app, { slug: 'acme', githubUsername: 'acme-dev' });
  globex = await signInSeller(started.app, { slug: 'globex', githubUsername: 'globex-dev' });
  await started.app.ctx.db.update(users).set({ displayName: 'Acme Dev' }).where(eq(users.id, acme.user.id));
});

async function getSettings(who: SignedIn): Promise<BrandSettings> {
  const response = await who.client.get(SETTINGS);
  expect(response.status).toBe(200);
  return response.json();
}

/** The saved settings, or an error body (`message` names the fields). */
type PutAnswer = { status: number; body: BrandSettings & { message: string } };

async function put(who: SignedIn, body: Record<string, unknown>): Promise<PutAnswer> {
  const response = await who.client.put(SETTINGS, body);
  return { status: response.status, body: await response.json() };
}

async function verify(who: SignedIn): Promise<{ status: number; body: VerifyDomainResponse }> {
  const response = await who.client.post(`${SETTINGS}/verify-domain`);
  return { status: response.status, body: await response.json() };
}

async function uploadPng(who: SignedIn): Promise<string> {
  const form = new FormData();
  form.append('logo', new Blob([new Uint8Array(tinyPng())]), 'logo.png');
  const response = await fetch(new URL('/api/user/upload-logo-temp', started.app.baseUrl), {
    method: 'POST',
    headers: { cookie: who.client.cookieHeader(), 'x-csrf-token': await who.client.getCsrfToken() },
    body: form,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { logoUrl: string }).logoUrl;
}

describe('settings', () => {
  it('answers the spec’s defaults before anything is saved, named after the seller', async () => {
    const settings = await getSettings(acme);
    expect(settings).toMatchObject({
      brandName: 'Acme Dev',
      brandLogo: null,
      brandHideText: false,
      ...BRAND_COLOR_DEFAULTS,
      brandDomain: null,
      brandDomainVerifiedAt: null,
      supportEmail: null,
      emailFromName: null,
      emailFromAddress: null,
      emailReplyTo: null,
      domainCnameTarget: 'acme.composer.localhost',
      repositoryUrl: `http://acme.composer.localhost:${started.app.port}`,
      updatedAt: null,
    });
    expect(BRAND_COLOR_DEFAULTS).toEqual({
      brandColor: '#8B5CF6',
      brandBackgroundColor: '#FFFFFF',
      brandCardColor: '#F9FAFB',
      brandBorderColor: '#E5E7EB',
      brandTextColor: '#111827',
      brandSecondaryTextColor: '#6B7280',
      brandHeaderColor: '#FFFFFF',
    });
    // Without a display name, the username.
    expect((await getSettings(globex)).brandName).toBe('globex-dev');
  });

  it('saves every field and answers the saved settings, which GET then returns', async () => {
    const logo = await uploadPng(acme);
    const body = {
      brandName: 'Acme Tools',
      brandLogo: logo,
      brandHideText: true,
      brandColor: '#ff5500',
      brandBackgroundColor: '#000',
      brandCardColor: '#111111',
      brandBorderColor: '#222222',
      brandTextColor: '#EEEEEE',
      brandSecondaryTextColor: '#AAAAAA',
      brandHeaderColor: '#123456',
      supportEmail: 'help@acme.test',
      emailFromName: 'Acme Licensing',
      emailFromAddress: 'licenses@acme.test',
      emailReplyTo: 'sales@acme.test',
    };
    const saved = await put(acme, body);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ ...body, brandColor: '#FF5500', brandBackgroundColor: '#000' });
    expect(saved.body.updatedAt).not.toBeNull();
    expect(await getSettings(acme)).toEqual(saved.body);
  });

  it('keeps fields left out, and clearing a field brings its default back', async () => {
    const partial = await put(acme, { brandColor: '#00AA00' });
    expect(partial.body).toMatchObject({
      brandColor: '#00AA00',
      brandName: 'Acme Tools',
      supportEmail: 'help@acme.test',
    });
    const cleared = await put(acme, { brandColor: '', brandName: null, brandHideText: null });
    expect(cleared.body).toMatchObject({
      brandColor: BRAND_COLOR_DEFAULTS.brandColor,
      brandName: 'Acme Dev',
      brandHideText: false,
    });
    await put(acme, { brandName: 'Acme Tools', brandColor: '#FF5500' });
  });

  it('refuses values that would break the page or the e-mails, naming each field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ brandColor: 'red' }, 'brandColor'],
      [{ brandTextColor: '#12345' }, 'brandTextColor'],
      [{ brandHeaderColor: '#fff;}body{background:url(https://evil.example)' }, 'brandHeaderColor'],
      [{ brandCardColor: 'expression(alert(1))' }, 'brandCardColor'],
      [{ supportEmail: 'not-an-email' }, 'supportEmail'],
      [{ emailReplyTo: 'a@b' }, 'emailReplyTo'],
      [{ emailFromAddress: 'x@y.test\r\nBcc: all@example.com' }, 'emailFromAddress'],
      [{ emailFromName: 'Acme\r\nBcc: all@example.com' }, 'emailFromName'],
      [{ brandName: 'x'.repeat(101) }, 'brandName'],
      [{ brandLogo: 'http://cdn.acme.test/logo.png' }, 'brandLogo'],
      [{ brandLogo: 'javascript:alert(1)' }, 'brandLogo'],
      [{ brandLogo: 'data:image/svg+xml,<svg onload=alert(1)>' }, 'brandLogo'],
      [{ brandLogo: '/api/branding/logos/../../secret' }, 'brandLogo'],
      [{ brandDomain: 'https://composer.acme.test' }, 'brandDomain'],
      [{ brandDomain: 'composer.acme.test:8443' }, 'brandDomain'],
      [{ brandDomain: 'composer.acme.test/path' }, 'brandDomain'],
      [{ brandDomain: 'localhost' }, 'brandDomain'],
      [{ brandDomain: '10.0.0.1' }, 'brandDomain'],
      [{ brandDomain: 'acme.composer.localhost' }, 'brandDomain'],
      [{ brandDomain: 'composer.localhost' }, 'brandDomain'],
      [{ brandDomain: 'bad_label.acme.test' }, 'brandDomain'],
    ];
    for (const [body, field] of cases) {
      const answer = await put(acme, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.message, JSON.stringify(body)).toContain(`${field}:`);
    }
    // Every problem at once.
    const several = await put(acme, { brandColor: 'red', supportEmail: 'nope' });
    expect(several.body.message).toContain('brandColor:');
    expect(several.body.message).toContain('supportEmail:');
    // Nothing of a refused save was stored.
    expect((await getSettings(acme)).brandColor).toBe('#FF5500');
  });

  it('refuses the app’s own host as a custom domain', async () => {
    const production = await startTestApp({ env: { PUBLIC_URL: 'https://app.packgate.test' } });
    try {
      const seller = await signInSeller(production);
      const response = await seller.client.put(SETTINGS, { brandDomain: 'APP.packgate.test' });
      expect(response.status).toBe(400);
      expect((await response.json()).message).toContain('brandDomain:');
    } finally {
      await production.close();
    }
  });

  it("keeps one seller's settings from another", async () => {
    const theirs = await getSettings(globex);
    expect(theirs.brandName).toBe('globex-dev');
    expect(theirs.supportEmail).toBeNull();
    expect(theirs.brandColor).toBe(BRAND_COLOR_DEFAULTS.brandColor);
    const saved = await put(globex, { brandName: 'Globex' });
    expect(saved.body.brandName).toBe('Globex');
    expect((await getSettings(acme)).brandName).toBe('Acme Tools');
  });

  it('asks signed-out visitors to sign in', async () => {
    const get = await fetch(new URL(SETTINGS, started.app.baseUrl));
    expect(get.status).toBe(401);
    const putResponse = await fetch(new URL(SETTINGS, started.app.baseUrl), {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(putResponse.status).toBe(401);
  });
});

describe('the public brand of a package host', () => {
  it("answers the seller's public brand on their package host, and nothing private", async () => {
    const response = await requestOnHost(started.app, 'acme.composer.localhost', '/api/branding/host');
    expect(response.status).toBe(200);
    const brand = jsonOf<PublicBrand>(response);
    expect(Object.keys(brand).sort()).toEqual(
      [
        'brandName',
        'brandLogo',
        'brandHideText',
        'brandColor',
        'brandBackgroundColor',
        'brandCardColor',
        'brandBorderColor',
        'brandTextColor',
        'brandSecondaryTextColor',
        'brandHeaderColor',
        'supportEmail',
        'repositoryName',
      ].sort(),
    );
    expect(brand).toMatchObject({
      brandName: 'Acme Tools',
      brandColor: '#FF5500',
      supportEmail: 'help@acme.test',
      repositoryName: 'acme',
    });
    // Its logo is served on the same host.
    const logo = await requestOnHost(started.app, 'acme.composer.localhost', brand.brandLogo!);
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
  });

  it('answers defaults for a seller who never saved a brand', async () => {
    const seller = await signInSeller(started.app, { slug: 'initech', githubUsername: 'initech' });
    const response = await requestOnHost(started.app, `${seller.user.slug}.composer.localhost`, '/api/branding/host');
    expect(jsonOf(response)).toEqual({
      brandName: 'initech',
      brandLogo: null,
      brandHideText: false,
      ...BRAND_COLOR_DEFAULTS,
      supportEmail: null,
      repositoryName: 'initech',
    });
  });

  it('answers 200 with null on the app host, the bare Composer domain and unknown sellers', async () => {
    for (const host of ['localhost', 'composer.localhost', 'nobody.composer.localhost', 'www.unknown.test']) {
      const response = await requestOnHost(started.app, host, '/api/branding/host');
      expect(response.status, host).toBe(200);
      expect(jsonOf(response), host).toBeNull();
    }
  });
});

describe('custom domains', () => {
  const domain = 'composer.acme-corp.test';

  it("lets a squatter's unverified claim coexist with the owner's, so it blocks nobody", async () => {
    const squatted = await put(globex, { brandDomain: domain });
    expect(squatted.status).toBe(200);
    expect(squatted.body).toMatchObject({ brandDomain: domain, brandDomainVerifiedAt: null });
  });

  it('stores the domain in lower case, unverified, and says what the CNAME must point to', async () => {
    const saved = await put(acme, { brandDomain: 'Composer.ACME-corp.test' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({
      brandDomain: domain,
      brandDomainVerifiedAt: null,
      domainCnameTarget: 'acme.composer.localhost',
    });
  });

  it('does not serve the repository on an unverified domain', async () => {
    const response = await requestOnHost(started.app, domain, '/packages.json', { token: 'pgc_whatever' });
    expect(response.status).toBe(404);
    expect(jsonOf(await requestOnHost(started.app, domain, '/api/branding/host'))).toBeNull();
  });

  it('fails verification with a clear message while the CNAME is missing or points elsewhere', async () => {
    const missing = await verify(acme);
    expect(missing.status).toBe(200);
    expect(missing.body.verified).toBe(false);
    expect(missing.body.message).toContain(`${domain} was not found in DNS`);
    expect(missing.body.message).toContain('acme.composer.localhost');

    dns.records.set(domain, { a: '192.0.2.10' });
    const noCname = await verify(acme);
    expect(noCname.body).toMatchObject({ verified: false });
    expect(noCname.body.message).toContain('has no CNAME record');

    dns.records.set(domain, { cname: 'globex.composer.localhost' });
    const elsewhere = await verify(acme);
    expect(elsewhere.body.verified).toBe(false);
    expect(elsewhere.body.message).toContain('points to globex.composer.localhost, not to acme.composer.localhost');
    expect(elsewhere.body.settings.brandDomainVerifiedAt).toBeNull();
  });

  it('does not verify a CNAME to the bare Composer domain, for the owner or the squatter', async () => {
    dns.records.set(domain, { cname: 'composer.localhost' });
    for (const seller of [acme, globex]) {
      const answer = await verify(seller);
      expect(answer.body.verified).toBe(false);
      expect(answer.body.settings.brandDomainVerifiedAt).toBeNull();
    }
    expect((await verify(acme)).body.message).toContain('points to composer.localhost, not to acme.composer.localhost');
    expect(jsonOf(await requestOnHost(started.app, domain, '/api/branding/host'))).toBeNull();
  });

  it("verifies a CNAME to the seller's host, after which the domain is their repository", async () => {
    dns.records.set(domain, { cname: 'acme.composer.localhost.' });
    const verified = await verify(acme);
    expect(verified.body.verified).toBe(true);
    expect(verified.body.settings.brandDomainVerifiedAt).not.toBeNull();
    expect(verified.body.settings.repositoryUrl).toBe(`http://${domain}:${started.app.port}`);

    const pkg = await createPackage(started.app, acme.user, 'acme/widget', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
    const holder = await createHolder(started.app, acme.user, 'holder@example.com');
    await createGrant(started.app, holder, pkg);
    const packagesJson = await requestOnHost(started.app, domain, '/packages.json', { token: holder.token });
    expect(packagesJson.status).toBe(200);
    expect(jsonOf<{ 'available-packages': string[] }>(packagesJson)['available-packages']).toEqual(['acme/widget']);
    const metadata = await requestOnHost(started.app, domain, '/p2/acme/widget.json', { token: holder.token });
    expect(metadata.status).toBe(200);

    // Another seller's holder can install nothing here.
    const globexPackage = await createPackage(started.app, globex.user, 'globex/thing', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
    const globexHolder = await createHolder(started.app, globex.user, 'someone@example.com');
    await createGrant(started.app, globexHolder, globexPackage);
    const foreign = await requestOnHost(started.app, domain, '/packages.json', { token: globexHolder.token });
    expect(jsonOf<{ 'available-packages': string[] }>(foreign)['available-packages']).toEqual([]);
    const foreignMetadata = await requestOnHost(started.app, domain, '/p2/globex/thing.json', {
      token: globexHolder.token,
    });
    expect(foreignMetadata.status).toBe(404);

    const brand = await requestOnHost(started.app, domain, '/api/branding/host');
    expect(jsonOf<PublicBrand>(brand).brandName).toBe('Acme Tools');
  });

  it("keeps a verified domain for its owner: the squatter's claim cannot verify and nobody can claim it anew", async () => {
    const squatter = await verify(globex);
    expect(squatter.body.verified).toBe(false);
    expect(squatter.body.message).toContain('not to globex.composer.localhost');

    const latecomer = await signInSeller(started.app);
    const refused = await put(latecomer, { brandDomain: domain });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(`brandDomain: ${domain} is already verified by another seller`);

    // Even with DNS pointed at the squatter now, the name stays with the seller who verified it first.
    dns.records.set(domain, { cname: 'globex.composer.localhost' });
    const late = await globex.client.post(`${SETTINGS}/verify-domain`);
    expect(late.status).toBe(409);
    expect(((await late.json()) as { message: string }).message).toContain('already verified by another seller');
    const brand = await requestOnHost(started.app, domain, '/api/branding/host');
    expect(jsonOf<PublicBrand>(brand).brandName).toBe('Acme Tools');
    dns.records.set(domain, { cname: 'acme.composer.localhost' });
  });

  it('needs verifying again after the domain changes, and the old name stops resolving', async () => {
    const changed = await put(acme, { brandDomain: 'repo.acme-corp.test' });
    expect(changed.body.brandDomainVerifiedAt).toBeNull();
    expect(changed.body.repositoryUrl).toBe(`http://acme.composer.localhost:${started.app.port}`);
    expect(jsonOf(await requestOnHost(started.app, domain, '/api/branding/host'))).toBeNull();
    // Saving the same domain again keeps its verification.
    dns.records.set('repo.acme-corp.test', { cname: 'acme.composer.localhost' });
    expect((await verify(acme)).body.verified).toBe(true);
    const same = await put(acme, { brandDomain: 'repo.acme-corp.test', brandName: 'Acme Tools' });
    expect(same.body.brandDomainVerifiedAt).not.toBeNull();
  });

  it('refuses to verify without a domain', async () => {
    const seller = await signInSeller(started.app);
    const answer = await verify(seller);
    expect(answer.status).toBe(400);
  });
});

describe('license e-mails', () => {
  it("carry the seller's brand: sender name, Reply-To, name, accent colour, support address and custom domain", async () => {
    const trial = await acme.client.post('/api/platform-subscription/start-trial', { tier: 'starter' });
    expect(trial.status).toBe(200);
    const pkg = await createPackage(started.app, acme.user, 'acme/branded', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
    const response = await acme.client.post(`/api/repositories/${pkg.id}/temporary-licenses`, {
      email: 'buyer@example.com',
      durationDays: 7,
    });
    expect(response.status).toBe(201);

    const mail = lastMailTo(started.app.dataDir, 'buyer@example.com');
    expect(mail.body).toMatch(/^From: "?Acme Licensing"? <no-reply@packgate\.localhost>/m);
    expect(mail.body).toMatch(/^Reply-To: sales@acme\.test/m);
    expect(mail.subject).toContain('from Acme Tools');
    expect(mail.body).toContain('Acme Tools has given you');
    expect(mail.body).toContain('#FF5500');
    expect(mail.body).toContain('help@acme.test');
    // The verified custom domain is the repository URL.
    expect(mail.body).toContain(`http://repo.acme-corp.test:${started.app.port}`);
  });

  it('falls back from Reply-To to the sender address and then the support address', async () => {
    await started.app.ctx.db
      .update(brandSettings)
      .set({ emailReplyTo: null, emailFromName: null })
      .where(eq(brandSettings.userId, acme.user.id));
    const pkg = await createPackage(started.app, acme.user, 'acme/fallback', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
    await acme.client.post(`/api/repositories/${pkg.id}/temporary-licenses`, { email: 'second@example.com' });
    const mail = lastMailTo(started.app.dataDir, 'second@example.com');
    expect(mail.body).toMatch(/^From: "?Acme Tools"? <no-reply@packgate\.localhost>/m);
    expect(mail.body).toMatch(/^Reply-To: licenses@acme\.test/m);
  });

  it('refuses a sender name that poses as an address, and never sends a brand name like one', async () => {
    const refused = await put(acme, { emailFromName: 'Acme <ceo@bank.example>' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain(
      'emailFromName: must be a plain name such as Acme Support, without <, >, @, double quotes or line breaks',
    );

    // A brand name is free text: it stands in for the sender name only when it could have been saved as one.
    await started.app.ctx.db
      .update(brandSettings)
      .set({ brandName: 'Acme <ceo@bank.example>', emailFromName: null })
      .where(eq(brandSettings.userId, acme.user.id));
    const pkg = await createPackage(started.app, acme.user, 'acme/posing', [
      { version: 'v1.0.0', releasedAt: '2026-01-10T10:00:00Z' },
    ]);
    await acme.client.post(`/api/repositories/${pkg.id}/temporary-licenses`, { email: 'third@example.com' });
    const mail = lastMailTo(started.app.dataDir, 'third@example.com');
    const from = /^From: (.*)$/m.exec(mail.body)?.[1];
    expect(from).toBe('Packgate <no-reply@packgate.localhost>');
  });
});
