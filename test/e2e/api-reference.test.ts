import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { launchBrowser, type TestBrowser } from './support/browser.js';

// The interactive reference at /api/docs as a reader sees it (issue 36): its samples name this server and send an
// example body the API accepts (src/server/features/api-v1/openapi-samples.int.test.ts runs them all), and it
// shows none of the reference tool's own links to outside services.

let app: TestApp;
let browser: TestBrowser;

beforeAll(async () => {
  app = await startTestApp();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the interactive reference', () => {
  it("writes samples with this server's address and an accepted body, and no promotional links", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(new URL('/api/docs/', app.baseUrl).toString());
    await page.getByText('Create a package', { exact: true }).first().click({ timeout: 30_000 });
    const server = app.ctx.config.publicUrl;
    const sample = page.locator('pre, code', { hasText: `curl ${server}/api/v1/packages \\` }).filter({
      hasText: '--request POST',
    });
    await sample.first().waitFor({ timeout: 30_000 });
    const text = ((await sample.first().textContent()) ?? '').replaceAll(/\s+/g, ' ');
    expect(text).toContain(`curl ${server}/api/v1/packages`);
    expect(text).toContain("--header 'Authorization: Bearer YOUR_SECRET_TOKEN'");
    expect(text).toContain('"packageName": "acme/widget"');
    expect(text).not.toMatch(/: ""/);

    // biome-ignore lint/performance/useDomNodeTextContent: the rendered lines, as a reader sees them, one by one
    const lines = (await page.locator('body').innerText()).split('\n').map((line) => line.trim());
    for (const promotional of ['Developer Tools', 'Configure', 'Share', 'Deploy', 'Generate MCP']) {
      expect(lines, promotional).not.toContain(promotional);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});
