// Runs before `npm start`, `npm run admin` and `npm run migrate`: builds only when dist/ is missing or older than what it is built
// from, so that `npm install && npm start` works on a fresh clone and an up-to-date build starts at once.
// Plain Node and no dependencies: a production install without dev dependencies runs it too, and finds the
// build it shipped with fresh.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
/** Written by `npm run build` after both halves succeeded. */
const stampFile = path.join(root, 'dist/.build-stamp');
const inputs = [
  'src/server',
  'src/contract',
  'src/web',
  'scripts/admin.ts',
  'scripts/backup-commands.ts',
  'scripts/migrate.ts',
  'scripts/build-server.mjs',
  'package-lock.json',
  'tsconfig.json',
  'vite.config.ts',
];

/** Newest modification time under a path; test files do not reach the build and are left out. */
function newestModification(entry) {
  const stats = statSync(entry, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return /\.test\.tsx?$/.test(entry) ? 0 : stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const child of readdirSync(entry)) newest = Math.max(newest, newestModification(path.join(entry, child)));
  return newest;
}

const builtAt = existsSync(stampFile) ? statSync(stampFile).mtimeMs : 0;
const sourcesChangedAt = Math.max(...inputs.map((input) => newestModification(path.join(root, input))));
if (builtAt < sourcesChangedAt) {
  console.log(
    builtAt === 0 ? 'No build yet: building first.' : 'The sources changed since the last build: rebuilding.',
  );
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) {
    console.error('The build failed; on a production install, build with dev dependencies first (`npm run build`).');
    process.exit(result.status ?? 1);
  }
}
