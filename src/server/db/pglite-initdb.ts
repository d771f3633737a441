import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';

// Creating PGlite's cluster (initdb) runs a WebAssembly program of its own whose memory stays referenced by the
// PGlite that ran it: on a fresh data folder the server kept about 430 MB more external memory, and 370 MB more
// resident, than the same server started again on the folder it had made. initdb happens once per data folder, so
// it runs in a short-lived child process and its memory leaves with it; the server then opens the folder as it opens
// an existing one.

const execFileAsync = promisify(execFile);

/** The child: opens PGlite on the folder (which runs initdb), closes it, exits. CommonJS, so `-e` needs no loader. */
const INITDB_SCRIPT = `
const { PGlite } = require(process.env.PACKGATE_PGLITE_MODULE);
const startParams = JSON.parse(process.env.PACKGATE_PGLITE_START_PARAMS);
const client = new PGlite({ dataDir: process.env.PACKGATE_PGLITE_DATA_DIR, startParams });
client.waitReady.then(() => client.close()).then(
  () => process.exit(0),
  (error) => { console.error(error); process.exit(1); },
);
`;

/** True when `dataDir` holds no PostgreSQL cluster yet (PGlite looks for PG_VERSION the same way). */
export function needsInitdb(dataDir: string): boolean {
  return !existsSync(path.join(dataDir, 'PG_VERSION'));
}

/**
 * Runs PGlite's initdb for `dataDir` in a child Node.js process when the folder holds no cluster yet. Returns
 * whether the child made it; when it could not (no child processes allowed, a broken install), the caller's PGlite
 * runs initdb itself as before, so start-up never depends on this saving.
 */
export async function initdbInChildProcess(dataDir: string, startParams: string[]): Promise<boolean> {
  if (!needsInitdb(dataDir)) return false;
  try {
    const modulePath = createRequire(import.meta.url).resolve('@electric-sql/pglite');
    await execFileAsync(process.execPath, ['-e', INITDB_SCRIPT], {
      env: {
        ...process.env,
        // The parent's NODE_OPTIONS (a loader, --cpu-prof) concern the parent only.
        NODE_OPTIONS: '',
        PACKGATE_PGLITE_MODULE: modulePath,
        PACKGATE_PGLITE_DATA_DIR: dataDir,
        PACKGATE_PGLITE_START_PARAMS: JSON.stringify(startParams),
      },
      timeout: 120_000,
    });
    return !needsInitdb(dataDir);
  } catch {
    return false;
  }
}
