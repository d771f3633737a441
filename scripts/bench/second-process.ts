// A second Packgate process on the benchmark's PostgreSQL database, for the revocation figure: started by
// scripts/bench.ts, prints its port on stdout, serves until it is sent SIGTERM.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../../src/server/app.js';
import { loopbackAppConfig } from '../../test/support/loopback-config.js';

const url = process.env.BENCH_SECOND_DATABASE_URL;
if (!url) throw new Error('BENCH_SECOND_DATABASE_URL is not set');
const dataDir = await mkdtemp(path.join(tmpdir(), 'packgate-bench-second-'));
const config = loopbackAppConfig(dataDir);
const built = await buildApp({ config, database: { kind: 'postgres', url, migrated: true }, logger: false });
const address = await built.app.listen({ port: 0, host: '127.0.0.1' });
// Answer only once the change feed listens: until then this process reads the database per request.
const deadline = Date.now() + 10_000;
while (!built.ctx.composerAccess.isTrusted && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
process.stdout.write(`${JSON.stringify({ port: Number(new URL(address).port) })}\n`);
process.once('SIGTERM', () => {
  void built
    .close()
    .then(() => rm(dataDir, { recursive: true, force: true }))
    .finally(() => process.exit(0));
});
