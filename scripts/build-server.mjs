// Compiles the server and the admin command line into dist/server, so production runs plain `node` (no tsx).
//
// One esbuild bundle per entry, shared code split into chunks beside them; npm packages stay external and are
// loaded from node_modules. esbuild reads tsconfig.json, so the `@contract/*` alias and the `.js` suffixes of
// relative imports resolve as they do under tsc and vitest.
//
// Files read at run time are found relative to the built code (import.meta.url), as they are from the sources:
// the migrations beside the database client (dist/server/migrations) and the web app in dist/web.
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
// PACKGATE_BUILD_OUTDIR: elsewhere than dist/server (npm run bench measures a built server without replacing the
// build other processes may be running); it must sit inside the project so that node_modules resolves.
const outdir = process.env.PACKGATE_BUILD_OUTDIR
  ? path.resolve(process.env.PACKGATE_BUILD_OUTDIR)
  : path.join(root, 'dist/server');

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    main: 'src/server/main.ts',
    admin: 'scripts/admin.ts',
    migrate: 'scripts/migrate.ts',
    // Started in a worker thread by svg-sanitizer-pool.ts, which looks for it beside the server's own files.
    'svg-sanitizer.worker': 'src/server/features/branding/svg-sanitizer.worker.ts',
    // The embedded database's thread, started by db/pglite-thread.ts, likewise found beside the server's own files.
    'pglite-thread.worker': 'src/server/db/pglite-thread.worker.ts',
    // Started as a child process by process-launcher.ts, likewise found beside the server's own files.
    'process-launcher.child': 'src/server/adapters/process-launcher/process-launcher.child.ts',
  },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  // Stack traces need the map's positions, not the sources' text: with the text, --enable-source-maps held about
  // 27 MB more in every process.
  sourcesContent: false,
  logLevel: 'warning',
});
cpSync(path.join(root, 'src/server/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
console.log(`Built the server into ${path.relative(root, outdir)}`);
