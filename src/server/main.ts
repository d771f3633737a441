import { keepTickObjectMapsAlive } from './lib/tick-object-maps.js';

// The server's entry. The maps of Node.js's tick objects are kept before anything else runs (lib/tick-object-maps.ts:
// a start-up that frees them once costs every later request); the app's modules are imported after that, not
// statically, since a static import would load them, and run their code, first.
keepTickObjectMapsAlive();
const { runServer } = await import('./run-server.js');
runServer().catch((error) => {
  console.error(error);
  process.exit(1);
});
