import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const distWeb = path.resolve(import.meta.dirname, '../../dist/web');

/** Issue 12: the landing page's first JavaScript, as Vite reports it (gzip), stays at or under this. */
const FIRST_JAVASCRIPT_MAX_GZIP_BYTES = 150 * 1000;

describe('the web app’s loose ends (issue 12)', () => {
  it('sends at most 150 KB gzip of JavaScript before the landing page can show', async () => {
    const html = await readFile(path.join(distWeb, 'index.html'), 'utf8');
    // The entry script and every module it preloads: what the browser fetches before the first render.
    const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    let total = 0;
    for (const script of scripts) total += gzipSync(await readFile(path.join(distWeb, script))).length;
    expect(total, `${scripts.join(', ')}: ${(total / 1000).toFixed(1)} KB gzip`).toBeLessThanOrEqual(
      FIRST_JAVASCRIPT_MAX_GZIP_BYTES,
    );
  });
});
