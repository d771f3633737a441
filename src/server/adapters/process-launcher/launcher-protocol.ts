// The messages between the server and its launcher process (process-launcher.ts, process-launcher.child.ts), sent
// over Node's IPC channel with the "advanced" serialization, which carries bytes as they are.

export type LauncherRequest =
  | {
      kind: 'start';
      id: number;
      file: string;
      args: string[];
      env: Record<string, string>;
      /** Written to the command's stdin, which is then closed; without it stdin is /dev/null. */
      input?: Uint8Array;
    }
  | { kind: 'kill'; id: number }
  /** Flow control: the server's reader is full (pause) or wants more (resume). */
  | { kind: 'pause'; id: number }
  | { kind: 'resume'; id: number };

export type LauncherReport =
  | { kind: 'stdout'; id: number; chunk: Uint8Array }
  | { kind: 'stderr'; id: number; chunk: Uint8Array }
  | { kind: 'exited'; id: number; code: number | null; signal: NodeJS.Signals | null }
  /** The command could not be started (ENOENT: not installed). */
  | { kind: 'failed'; id: number; code?: string; message: string };
