// The embedded database's thread entry when the server runs from its TypeScript sources (tsx, vitest): a thread does
// not get a TypeScript loader from every parent (vitest transforms modules in process), so it registers tsx itself
// before loading pglite-thread.worker.ts. The built server starts dist/server/pglite-thread.worker.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./pglite-thread.worker.ts');
