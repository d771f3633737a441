// The production web build (`npm run build`, which runs `vite build`) leaves the debug page out (issue 29 item 7):
// /logout-test and the /api/debug/* calls it makes exist only in a development build. Needs `npm run build` first.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const assets = path.resolve(import.meta.dirname, '../../dist/web/assets');

/** Texts only the Logout Test page holds: its heading's sentence, its buttons and the debug API it calls. */
const DEBUG_PAGE_TEXTS = [
  'Debug page: compare the client and server views of the session.',
  'Server Force Logout',
  'Client Force Clear',
  '/api/debug/session',
  '/api/debug/test-logout',
  '/api/debug/force-logout',
];

let bundle: string;

beforeAll(async () => {
  const scripts = (await readdir(assets)).filter((name) => name.endsWith('.js'));
  const contents = await Promise.all(scripts.map((name) => readFile(path.join(assets, name), 'utf8')));
  bundle = contents.join('\n');
});

describe('the production web build', () => {
  it('holds the lazy pages a user can open', () => {
    // The search below would pass on an empty or unreadable build: the Webhooks and Terms pages are lazy too.
    expect(bundle).toContain('No webhook endpoints yet');
    expect(bundle).toContain('Verifying Requests');
  });

  it('holds no text of the Logout Test debug page', () => {
    for (const text of DEBUG_PAGE_TEXTS) expect(bundle.includes(text), text).toBe(false);
  });
});
