import { AsyncResource } from 'node:async_hooks';

// Node.js 20 queues every `process.nextTick` as an object literal with two symbol keys (lib/internal/process/
// task_queues.js: `{ [async_id_symbol]: …, [trigger_async_id_symbol]: …, callback, args }`), and its streams and HTTP
// code call nextTick several times per request. V8 optimizes such a literal for the shapes (maps) it has seen, and
// holds them weakly: a full garbage collection at a moment when no tick object is alive frees them, the next tick
// object gets new ones, and the literal's feedback turns megamorphic for good, so that every tick object is built
// through V8's runtime from then on. A small script never collects at such a moment; a server that loads an app does,
// during start-up. Measured in the built server (issue 34, perf): about 3 µs of every warm Composer answer, a tenth
// of it, and as much of every other request.
//
// Keeping one object of the tick object's shape alive keeps those maps alive, so the feedback stays as a small
// script's. It must be made from a real tick object's maps (inside a tick, once one exists: made first, it would set
// the fields' representations itself and the real ones would replace its maps), and before any of them is freed:
// the server's entry calls this before it loads anything else. Test: tick-object-maps.test.ts.

let keptTickObject: object | undefined;

/** The two symbols Node.js names the async ids with, as AsyncResource carries them too; undefined elsewhere. */
function asyncIdSymbols(): { asyncId: symbol; triggerAsyncId: symbol } | undefined {
  const symbols = Object.getOwnPropertySymbols(new AsyncResource('PACKGATE_TICK_MAPS'));
  const asyncId = symbols.find((symbol) => symbol.description === 'async_id_symbol');
  const triggerAsyncId = symbols.find((symbol) => symbol.description === 'trigger_async_id_symbol');
  return asyncId && triggerAsyncId ? { asyncId, triggerAsyncId } : undefined;
}

function keepTickObject(): void {
  const symbols = asyncIdSymbols();
  if (!symbols) return;
  // The same literal as nextTick's, property for property: it takes the same maps from V8's literal map cache.
  keptTickObject = {
    [symbols.asyncId]: 0,
    [symbols.triggerAsyncId]: 0,
    callback: keepTickObject,
    args: undefined,
  };
}

/** Keeps the maps of Node.js's tick objects alive for the life of the process (once is enough). */
export function keepTickObjectMapsAlive(): void {
  if (keptTickObject) return;
  // Inside a tick: its own tick object exists, and stays queued (alive) until then.
  process.nextTick(keepTickObject);
}
