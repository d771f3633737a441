// Measures start-up to first answered request of the built server (`npm run build` first): once on a fresh data
// folder (PGlite creates its cluster and runs every migration) and once more on the same folder (warm).
//
//   node scripts/startup-time.mjs
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

const builtServer = path.resolve(import.meta.dirname, '../dist/server/main.js');

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Milliseconds from spawning the process to its first 200 on /api/health. */
async function timeStart(dataDir) {
  const port = await freePort();
  const startedAt = performance.now();
  const child = spawn(process.execPath, [builtServer], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      const answered = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) return performance.now() - startedAt;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'packgate-startup-'));
try {
  const fresh = await timeStart(dataDir);
  const warm = await timeStart(dataDir);
  console.log(`fresh data folder: ${Math.round(fresh)} ms; warm: ${Math.round(warm)} ms`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
