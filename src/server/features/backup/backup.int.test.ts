import { createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreCommand } from '../../../../scripts/backup-commands.js';
import { runComposer } from '../../../../test/composer/composer-cli.js';
import {
  type FixtureHolder,
  type FixturePackage,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { createLicensedWidget, runAdminCommand } from '../../../../test/support/backup-source.js';
import { backupWorkspace } from '../../../../test/support/restore-target.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { P2File } from '../../../contract/composer.js';
import { LOCAL_ADMIN_BACKUP_PATH } from '../../../contract/local-admin.js';
import { setupCommands } from '../../../contract/setup-commands.js';
import { FileStorage } from '../../adapters/storage/file-storage.js';
import { loadConfig } from '../../config.js';
import { type DatabaseTarget, migrationsFolder, openDatabase } from '../../db/client.js';
import { sales } from '../../db/schema/index.js';
import { codeSchemaVersion } from '../../db/schema-version.js';
import { TarWriter } from '../../lib/tar.js';
import { readLocalAdminChannel } from '../admin/local-admin.service.js';
import { BACKUP_FORMAT } from './backup-archive.js';
import { assertRestoreTargetEmpty, restoreBackup } from './backup-restore.service.js';
import { verifyBackup } from './backup-verify.service.js';

// A backup of a running instance (packages, zips, a logo, a license holder, a sale) restores elsewhere, and the
// restored instance answers the holder's token, issued before the backup, with the same metadata and the same zip
// bytes. A restore refuses a truncated file, one from a newer schema, one that is not ours, and a non-empty target,
// and changes nothing.

const HOST = 'acme.composer.localhost';
const { dir: work, archive, emptyTarget } = backupWorkspace('packgate-backup-test-');

let source: TestApp;
let holder: FixtureHolder;
let widget: FixturePackage;
let before: { packages: Buffer; p2: Buffer; zip: Buffer; sales: number };

const distPath = (p2: Buffer, version: string) => {
  const entry = jsonOf<P2File>({ status: 200, statusMessage: '', headers: {}, body: p2 }).packages['acme/widget']!.find(
    (candidate) => candidate.version === version,
  );
  return new URL(entry!.dist.url).pathname;
};

/**
 * The real composer, as the holder would run it with the token issued before the backup: the setup commands against
 * `app`'s repository host, then `composer require`; answers the version installed and the installed composer.json.
 */
async function installWithComposer(app: TestApp, project: string): Promise<{ version: string; manifest: string }> {
  mkdirSync(project, { recursive: true });
  const manifest = { name: 'holder/shop', type: 'project', repositories: { 'packagist.org': false }, require: {} };
  writeFileSync(path.join(project, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
  const lines = setupCommands({
    repositoryUrl: `http://${HOST}:${app.port}`,
    sellerSlug: 'acme',
    packageName: 'acme/widget:1.1.0',
    token: holder.token,
  });
  for (const line of lines) {
    const run = await runComposer(project, line.split(' ').slice(1), { home: work, audit: false });
    expect(run.code, `${line}\n${run.output}`).toBe(0);
  }
  const lock = JSON.parse(readFileSync(path.join(project, 'composer.lock'), 'utf8')) as {
    packages: { name: string; version: string }[];
  };
  return {
    version: lock.packages.find((entry) => entry.name === 'acme/widget')!.version,
    manifest: readFileSync(path.join(project, 'vendor/acme/widget/composer.json'), 'utf8'),
  };
}

async function answers(app: TestApp) {
  const packages = await requestOnHost(app, HOST, '/packages.json', { token: holder.token });
  const p2 = await requestOnHost(app, HOST, '/p2/acme/widget.json', { token: holder.token });
  expect([packages.status, p2.status]).toEqual([200, 200]);
  const zip = await requestOnHost(app, HOST, distPath(p2.body, 'v1.1.0'), { token: holder.token });
  expect(zip.status).toBe(200);
  const [{ n }] = (await app.ctx.db.select({ n: count() }).from(sales)) as [{ n: number }];
  return { packages: packages.body, p2: p2.body, zip: zip.body, sales: n };
}

beforeAll(async () => {
  source = await startTestApp();
  const licensed = await createLicensedWidget(source);
  widget = licensed.widget;
  holder = licensed.holder;
  await source.ctx.db.insert(sales).values({
    sellerId: licensed.acme.id,
    packageId: widget.id,
    kind: 'purchase',
    status: 'paid',
    pricingType: 'one_time',
    tierName: 'Single site',
    customerId: holder.id,
    amountCents: 4900,
    feeCents: 245,
    currency: 'usd',
    paidAt: new Date('2026-02-20T10:00:00Z'),
  });
  await source.ctx.storage.put(`logos/${licensed.acme.id}/logo.png`, Buffer.from('a logo'), {
    contentType: 'image/png',
  });
  before = await answers(source);
  expect(before.sales).toBe(1);

  // What `npm run admin -- backup` does while a server runs on PGlite: the server itself writes the archive.
  const channel = readLocalAdminChannel(source.dataDir)!;
  const response = await fetch(new URL(LOCAL_ADMIN_BACKUP_PATH, channel.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${channel.secret}` },
  });
  expect(response.status).toBe(200);
  writeFileSync(archive, Buffer.from(await response.arrayBuffer()));
});

afterAll(async () => {
  await source?.close();
});

describe('a backup of a running instance', () => {
  it('restores into an empty instance that answers the same token with the same packages and zip bytes', async () => {
    const verified = await verifyBackup(() => createReadStream(archive), archive);
    expect(verified.header).toMatchObject({ format: BACKUP_FORMAT, schema: codeSchemaVersion(migrationsFolder) });
    const keys = verified.manifest.objects.map((object) => object.key);
    expect(keys.filter((key) => key.startsWith('dists/')).sort()).toEqual(
      Object.values(widget.versions)
        .map((version) => version.distKey!)
        .sort(),
    );
    expect(keys.filter((key) => key.startsWith('logos/'))).toHaveLength(1);

    const target = await emptyTarget();
    const storage = new FileStorage(path.join(target.dataDir, 'storage'));
    const database = await openDatabase({ ...target.database, migrated: true });
    try {
      await assertRestoreTargetEmpty({ db: database.db, storage });
      const summary = await restoreBackup(() => createReadStream(archive), verified, {
        db: database.db,
        kind: database.kind,
        storage,
      });
      expect(summary.objects).toBe(3);
    } finally {
      await database.close();
    }

    const restored = await startTestApp({
      existing: target,
      env: { SECRET_KEY: verified.secretKey },
    });
    try {
      const after = await answers(restored);
      // The same answers; only the dist URLs' port is the new app's.
      const portless = (body: Buffer, port: number) => body.toString().replaceAll(`:${port}/`, ':PORT/');
      expect(portless(after.packages, restored.port)).toBe(portless(before.packages, source.port));
      expect(portless(after.p2, restored.port)).toBe(portless(before.p2, source.port));
      expect(after.zip.equals(widget.versions['v1.1.0']!.zip)).toBe(true);
      expect(after.zip.equals(before.zip)).toBe(true);
      expect(after.sales).toBe(1);
      // The real client installs from the restored instance with the token issued before the backup.
      const installed = await installWithComposer(restored, path.join(work, 'shop'));
      expect(installed.version).toBe('v1.1.0');
      expect(JSON.parse(installed.manifest)).toMatchObject({ name: 'acme/widget' });
      const logo = await restored.ctx.storage.get(
        verified.manifest.objects.find((o) => o.key.startsWith('logos/'))!.key,
      );
      expect(logo?.contentType).toBe('image/png');
    } finally {
      await restored.close();
    }
  });
});

describe('a restore', () => {
  /** Runs `npm run admin -- restore FILE` against an empty target; returns its exit code and what it printed. */
  async function restore(file: string, target?: { dataDir: string; env: Record<string, string> }) {
    const into = target ?? (await emptyTarget());
    const config = loadConfig({ DATA_DIR: into.dataDir, ...into.env });
    return { ...(await runAdminCommand(() => restoreCommand(config, file))), into };
  }

  /** The target holds what it held before: no database tables, no stored objects. */
  async function expectUntouched(into: { dataDir: string; database?: DatabaseTarget }) {
    expect(existsSync(path.join(into.dataDir, 'storage'))).toBe(false);
    expect(existsSync(path.join(into.dataDir, 'pglite'))).toBe(false);
    if (into.database?.kind === 'postgres') {
      const database = await openDatabase({ ...into.database, migrated: true });
      try {
        await assertRestoreTargetEmpty({ db: database.db });
      } finally {
        await database.close();
      }
    }
  }

  it('refuses a truncated file', async () => {
    const file = path.join(work, 'truncated.tar.gz');
    const whole = readFileSync(archive);
    writeFileSync(file, whole.subarray(0, Math.floor(whole.length * 0.7)));
    const { code, message, into } = await restore(file);
    expect(code).toBe(1);
    expect(message).toMatch(/is incomplete .*cut short.* Nothing was changed\./s);
    await expectUntouched(into);
  });

  it('refuses a backup from a newer schema, naming both versions', async () => {
    const code = codeSchemaVersion(migrationsFolder);
    const file = path.join(work, 'newer.tar.gz');
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const tar = new TarWriter(out, new Date());
    const header = Buffer.from(
      JSON.stringify({
        format: BACKUP_FORMAT,
        formatVersion: 1,
        packgateVersion: '9.0.0',
        createdAt: new Date().toISOString(),
        database: 'postgres',
        schema: { version: code.version + 1, migration: '9999_from_the_future' },
      }),
    );
    await tar.add('packgate-backup.json', header.length, header);
    await tar.finish();
    writeFileSync(file, gzipSync(Buffer.concat(chunks)));
    const result = await restore(file);
    expect(result.code).toBe(1);
    expect(result.message).toContain(`schema version ${code.version + 1} (9999_from_the_future)`);
    expect(result.message).toContain(`schema version ${code.version} (${code.migration})`);
    expect(result.message).toContain('Packgate 9.0.0');
    await expectUntouched(result.into);
  });

  it('refuses a file that is not a Packgate backup', async () => {
    const text = path.join(work, 'notes.txt');
    writeFileSync(text, 'these are not the rows you are looking for\n');
    const plain = await restore(text);
    expect(plain.code).toBe(1);
    expect(plain.message).toMatch(/is not a Packgate backup: it is not a gzip file/);
    await expectUntouched(plain.into);

    // A well-formed .tar.gz of something else.
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const tar = new TarWriter(out, new Date());
    await tar.add('README.md', 6, Buffer.from('hello\n'));
    await tar.finish();
    const other = path.join(work, 'other.tar.gz');
    writeFileSync(other, gzipSync(Buffer.concat(chunks)));
    const foreign = await restore(other);
    expect(foreign.code).toBe(1);
    expect(foreign.message).toMatch(/is not a Packgate backup \(it does not start with one\)/);
    await expectUntouched(foreign.into);
  });

  it('refuses a target that is not empty and leaves it as it was', async () => {
    const env: Record<string, string> =
      source.databaseTarget?.kind === 'postgres' ? { DATABASE_URL: source.databaseTarget.url } : {};
    const { code, message } = await restore(archive, { dataDir: source.dataDir, env });
    expect(code).toBe(1);
    expect(message).toMatch(/is not empty.* Nothing was changed\./);
    expect(readdirSync(path.join(source.dataDir, 'storage')).length).toBeGreaterThan(0);
    const now = await answers(source);
    expect(now.packages.toString()).toBe(before.packages.toString());
    expect(now.sales).toBe(1);
  });
});
