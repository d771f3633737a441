import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  createGrant,
  createHolder,
  createPackage,
  type FixtureHolder,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { sellerRepositoryAroundTests } from '../../../../test/support/seller-repository.js';
import type { PackagesJson } from '../../../contract/composer.js';
import { holderTokens } from '../../db/schema/index.js';
import { generateToken, sha256Hex } from '../../lib/crypto.js';

// The Composer doors decide each request from the named token's own state (issue 32) at the request's time: revoked
// and expired tokens are refused; a rotated token works until its overlap ends and says so in packages.json, where
// every project of the token reads it, as does a token reported leaked that the seller keeps for a while. The test
// clock reads 2026-03-01 12:00 UTC.

const NOW = new Date('2026-03-01T12:00:00Z');
const HOST = 'named.composer.localhost';
const HOUR_MS = 3_600_000;

const repository = sellerRepositoryAroundTests('named');

let counter = 0;
async function licensed() {
  counter++;
  const pkg = await createPackage(repository.app, repository.seller, `named/lib-${counter}`, [
    { version: 'v1.0.0', releasedAt: '2026-01-05T10:00:00Z' },
  ]);
  const holder = await createHolder(repository.app, repository.seller, `named-${counter}@example.com`);
  await createGrant(repository.app, holder, pkg);
  return { name: pkg.name, holder };
}

/** Another named token of the holder, with the given state. */
async function addToken(holder: FixtureHolder, values: Partial<typeof holderTokens.$inferInsert> = {}) {
  const token = generateToken('pgc');
  const [row] = await repository.app.ctx.db
    .insert(holderTokens)
    .values({ customerId: holder.id, name: `Token ${++counter}`, tokenHash: sha256Hex(token), ...values })
    .returning();
  return { token, id: row!.id };
}

/** The three doors for one token: statuses, and packages.json's warnings when it answered. */
async function doors(token: string, name: string) {
  const index = await requestOnHost(repository.app, HOST, '/packages.json', { token });
  const p2 = await requestOnHost(repository.app, HOST, `/p2/${name}.json`, { token });
  const zip = await requestOnHost(repository.app, HOST, `/api/composer/download/${name}/v1.0.0`, { token });
  return {
    statuses: [index.status, p2.status, zip.status],
    message: index.status === 401 ? jsonOf<{ message: string }>(index).message : undefined,
    warnings: index.status === 200 ? jsonOf<PackagesJson>(index).warnings?.map((w) => w.message) : undefined,
  };
}

describe('a named token', () => {
  it('works as a bearer and as the HTTP basic password under any user name', async () => {
    const { name, holder } = await licensed();
    const ci = await addToken(holder, { kind: 'ci' });
    expect((await doors(ci.token, name)).statuses).toEqual([200, 200, 200]);
    for (const username of ['token', 'ci-bot', '']) {
      const basic = Buffer.from(`${username}:${ci.token}`).toString('base64');
      const response = await requestOnHost(repository.app, HOST, `/p2/${name}.json`, {
        headers: { authorization: `Basic ${basic}` },
      });
      expect(response.status, username).toBe(200);
    }
  });

  it('is refused once revoked, while the holder’s other token keeps working', async () => {
    const { name, holder } = await licensed();
    const laptop = await addToken(holder);
    expect((await doors(laptop.token, name)).statuses).toEqual([200, 200, 200]);
    await repository.app.ctx.db.update(holderTokens).set({ revokedAt: NOW }).where(eq(holderTokens.id, laptop.id));
    const refused = await doors(laptop.token, name);
    expect(refused.statuses).toEqual([401, 401, 401]);
    expect(refused.message).toBe('This token was revoked on 2026-03-01 and no longer works.');
    expect((await doors(holder.token, name)).statuses).toEqual([200, 200, 200]);
  });

  it('is refused from its expiry on, decided at the request’s time', async () => {
    const { name, holder } = await licensed();
    const short = await addToken(holder, { expiresAt: new Date(NOW.getTime() + HOUR_MS) });
    expect((await doors(short.token, name)).statuses).toEqual([200, 200, 200]);
    repository.app.clock.advance(2 * HOUR_MS);
    try {
      const refused = await doors(short.token, name);
      expect(refused.statuses).toEqual([401, 401, 401]);
      expect(refused.message).toBe('This token expired at 2026-03-01 13:00 UTC.');
    } finally {
      repository.app.clock.set(NOW);
    }
  });

  it('works during a rotation’s overlap and says until when, then only the new one works', async () => {
    const { name, holder } = await licensed();
    const replacement = await addToken(holder);
    await repository.app.ctx.db
      .update(holderTokens)
      .set({ replacedById: replacement.id, rotatedAt: NOW, expiresAt: new Date(NOW.getTime() + 24 * HOUR_MS) })
      .where(eq(holderTokens.id, holder.tokenId!));
    const during = await doors(holder.token, name);
    expect(during.statuses).toEqual([200, 200, 200]);
    expect(during.warnings).toEqual([
      `This token was replaced on 2026-03-01 and stops working at 2026-03-02 12:00 UTC; use the new token from your license e-mail or the license portal: composer config bearer.${HOST}:${repository.app.port} <token>.`,
    ]);
    expect((await doors(replacement.token, name)).warnings).toBeUndefined();
    repository.app.clock.advance(25 * HOUR_MS);
    try {
      const after = await doors(holder.token, name);
      expect(after.statuses).toEqual([401, 401, 401]);
      expect(after.message).toBe('This token was replaced on 2026-03-01 and stopped working at 2026-03-02 12:00 UTC.');
      expect((await doors(replacement.token, name)).statuses).toEqual([200, 200, 200]);
    } finally {
      repository.app.clock.set(NOW);
    }
  });

  it('works with a warning when reported leaked and kept, until its expiry', async () => {
    const { name, holder } = await licensed();
    await repository.app.ctx.db
      .update(holderTokens)
      .set({ leakedAt: NOW, leakUrl: 'https://example.com/leak', expiresAt: new Date(NOW.getTime() + 24 * HOUR_MS) })
      .where(eq(holderTokens.id, holder.tokenId!));
    const leaked = await doors(holder.token, name);
    expect(leaked.statuses).toEqual([200, 200, 200]);
    expect(leaked.warnings?.[0]).toContain(
      'This token was reported as leaked in public on 2026-03-01 and stops working at 2026-03-02 12:00 UTC',
    );
  });

  it('records its last use at most once a minute, without dropping what the process holds', async () => {
    const { name, holder } = await licensed();
    const lastUse = async () =>
      (await repository.app.ctx.db.select().from(holderTokens).where(eq(holderTokens.id, holder.tokenId!)))[0]!
        .lastUsedAt;
    await doors(holder.token, name);
    await expect.poll(lastUse).toEqual(NOW);
    const hits = repository.app.ctx.composerAccess.hits;
    repository.app.clock.advance(30_000);
    try {
      await doors(holder.token, name);
      expect(await lastUse()).toEqual(NOW);
      // Served from the held view: writing the last use announced nothing that would drop it.
      expect(repository.app.ctx.composerAccess.hits).toBeGreaterThan(hits);
      repository.app.clock.advance(60_000);
      await requestOnHost(repository.app, HOST, '/packages.json', { token: holder.token });
      await expect.poll(lastUse).toEqual(new Date(NOW.getTime() + 90_000));
    } finally {
      repository.app.clock.set(NOW);
    }
  });
});
