// The launcher's entry when the server runs from its TypeScript sources (tsx, vitest): the launcher is started
// without the parent's loader flags, so it registers tsx itself before loading process-launcher.child.ts. The
// built server starts dist/server/process-launcher.child.js instead.
import { register } from 'tsx/esm/api';

register();
await import('./process-launcher.child.ts');
