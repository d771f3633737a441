// The worker thread's entry when the server runs from its TypeScript sources (tsx, vitest): a thread does not get a
// TypeScript loader from every parent (vitest transforms modules in process), so it registers tsx itself before
// loading svg-sanitizer.worker.ts. The built server starts dist/server/svg-sanitizer.worker.js instead.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./svg-sanitizer.worker.ts');

export default worker.default;
export const ready = worker.ready;
