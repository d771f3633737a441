import type { ChildProcess } from 'node:child_process';

/** What a server process a test started has printed, and its end. */
export type WatchedChild = {
  /** Everything it has written to stdout and stderr so far, interleaved as it came. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
};

/** Collects a child's output (spawned with piped stdout and stderr) and its exit, for a test's waits and messages. */
export function watchChild(child: ChildProcess): WatchedChild {
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString('utf8');
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { output: () => output, exited };
}
