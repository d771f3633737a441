import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const moduleUrl = pathToFileURL(path.join(import.meta.dirname, 'tick-object-maps.ts')).href;

/**
 * A process that queues ticks, runs two full garbage collections while no tick object is alive (as a server's
 * start-up may), queues ticks again and prints the state of nextTick's object literal as V8 keeps it: one state per
 * property, MONOMORPHIC (built inline) or MEGAMORPHIC (built through V8's runtime). With `keep`, the module keeps the
 * maps first, as main.ts does.
 */
const SCRIPT = (keep: boolean) => `
${keep ? `const { keepTickObjectMapsAlive } = await import(${JSON.stringify(moduleUrl)}); keepTickObjectMapsAlive();` : ''}
const queueTicks = () => new Promise((resolve) => {
  for (let index = 0; index < 1000; index++) process.nextTick(() => {}, index);
  setImmediate(resolve);
});
await queueTicks();
globalThis.gc();
globalThis.gc();
await queueTicks();
%DebugPrint(process.nextTick);
`;

async function literalStates(keep: boolean): Promise<string[]> {
  // V8 prints to the process's standard output itself: into a file, since it drops what a pipe does not take at once.
  const folder = mkdtempSync(path.join(tmpdir(), 'packgate-tick-maps-'));
  const outputFile = path.join(folder, 'debug-print.txt');
  const output = openSync(outputFile, 'w');
  let stdout: string;
  try {
    const child = spawn(
      process.execPath,
      ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '--eval', SCRIPT(keep)],
      { stdio: ['ignore', output, 'inherit'] },
    );
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    stdout = readFileSync(outputFile, 'utf8');
  } finally {
    closeSync(output);
    rmSync(folder, { recursive: true, force: true });
  }
  return [...stdout.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral ([A-Z_]+)/g)].map((match) => match[1]!);
}

describe("the tick objects' maps", () => {
  it('keeps every property of a tick object built inline after garbage collections, which lose them otherwise', async () => {
    const [without, kept] = await Promise.all([literalStates(false), literalStates(true)]);
    // Without the module, Node.js's own literal falls to V8's runtime (what the module is for; should a Node.js
    // release fix this, the module can go).
    expect(without).toHaveLength(4);
    expect(without).toContain('MEGAMORPHIC');
    expect(kept).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
  }, 30_000);
});
