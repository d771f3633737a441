import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupCommand, restoreCommand } from '../../../../scripts/backup-commands.js';
import {
  type FixtureHolder,
  type FixturePackage,
  jsonOf,
  requestOnHost,
} from '../../../../test/composer/repository-fixtures.js';
import { type FakeS3, startFakeS3 } from '../../../../test/fakes/s3.js';
import { createLicensedWidget, runAdminCommand } from '../../../../test/support/backup-source.js';
import { backupWorkspace } from '../../../../test/support/restore-target.js';
import { startTestApp, type TestApp } from '../../../../test/support/test-app.js';
import type { P2File } from '../../../contract/composer.js';
import { createStorage } from '../../adapters/storage/create-storage.js';
import { loadConfig } from '../../config.js';

// Backups of an instance whose zips and logos live in S3 object storage (issue 35 item 3): `npm run admin -- backup`
// reads the objects from the bucket, `npm run admin -- restore` writes them into another, empty bucket beside an
// empty database, and the restored instance serves the holder the same zip bytes with the token issued before the
// backup. A restore into a bucket that already holds objects is refused and changes nothing.

const HOST = 'acme.composer.localhost';
const { dir: work, archive, removals, emptyTarget } = backupWorkspace('packgate-backup-s3-test-');

let sourceBucket: FakeS3;
let source: TestApp;
let holder: FixtureHolder;
let widget: FixturePackage;
let logoKey: string;

/** The zip of acme/widget v1.1.0 as the holder downloads it from `app`. */
async function downloadedZip(app: TestApp): Promise<Buffer> {
  const p2 = await requestOnHost(app, HOST, '/p2/acme/widget.json', { token: holder.token });
  expect(p2.status).toBe(200);
  const entry = jsonOf<P2File>(p2).packages['acme/widget']!.find((candidate) => candidate.version === 'v1.1.0');
  const zip = await requestOnHost(app, HOST, new URL(entry!.dist.url).pathname, { token: holder.token });
  expect(zip.status).toBe(200);
  return zip.body;
}

/** Every key in a bucket. */
async function keysIn(bucket: FakeS3): Promise<string[]> {
  const config = loadConfig({ DATA_DIR: work, ...bucket.env });
  const keys: string[] = [];
  for await (const object of createStorage(config.storage).list()) keys.push(object.key);
  return keys.sort();
}

beforeAll(async () => {
  sourceBucket = await startFakeS3({ bucket: 'packgate-source' });
  source = await startTestApp({ env: sourceBucket.env });
  const licensed = await createLicensedWidget(source);
  widget = licensed.widget;
  holder = licensed.holder;
  logoKey = `logos/${licensed.acme.id}/logo.png`;
  await source.ctx.storage.put(logoKey, Buffer.from('a logo'), { contentType: 'image/png' });
  // The zips and the logo are in the bucket, not in the data folder.
  expect(await keysIn(sourceBucket)).toEqual(
    [...Object.values(widget.versions).map((version) => version.distKey!), logoKey].sort(),
  );

  // `npm run admin -- backup FILE` with the running server's own settings (on PGlite the server writes it).
  const backup = await runAdminCommand(() => backupCommand(source.ctx.config, archive));
  expect(backup).toEqual({ code: 0, message: '' });
}, 180_000);

afterAll(async () => {
  await source?.close();
  await sourceBucket?.close();
});

describe('a backup of an instance that stores objects in S3', () => {
  it('restores into an empty bucket and database, and serves the same zip bytes', async () => {
    const targetBucket = await startFakeS3({ bucket: 'packgate-restored' });
    removals.push(() => targetBucket.close());
    const target = await emptyTarget(targetBucket.env);
    removals.push(async () => rmSync(target.dataDir, { recursive: true, force: true }));
    const restore = await runAdminCommand(() =>
      restoreCommand(loadConfig({ DATA_DIR: target.dataDir, ...target.env }), archive),
    );
    expect(restore).toEqual({ code: 0, message: '' });
    expect(await keysIn(targetBucket)).toEqual(await keysIn(sourceBucket));

    const restored = await startTestApp({
      existing: target,
      env: { ...targetBucket.env, SECRET_KEY: source.ctx.config.secretKey },
    });
    try {
      const zip = await downloadedZip(restored);
      expect(zip.equals(widget.versions['v1.1.0']!.zip)).toBe(true);
      expect(zip.equals(await downloadedZip(source))).toBe(true);
      const logo = await restored.ctx.storage.get(logoKey);
      expect(logo?.contentType).toBe('image/png');
    } finally {
      await restored.close();
    }
  });

  it('refuses a bucket that already holds objects, and changes neither it nor the database', async () => {
    const target = await emptyTarget(sourceBucket.env);
    removals.push(async () => rmSync(target.dataDir, { recursive: true, force: true }));
    const keysBefore = await keysIn(sourceBucket);
    const restore = await runAdminCommand(() =>
      restoreCommand(loadConfig({ DATA_DIR: target.dataDir, ...target.env }), archive),
    );
    expect(restore.code).toBe(1);
    expect(restore.message).toMatch(/The object storage is not empty \(it holds .+\).* Nothing was changed\./s);
    expect(await keysIn(sourceBucket)).toEqual(keysBefore);
    expect((await downloadedZip(source)).equals(widget.versions['v1.1.0']!.zip)).toBe(true);
  });
});
