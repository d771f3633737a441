import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';

// How many distinct memory pages a process touches while it answers one request, read from the kernel: writing 1 to
// /proc/<pid>/clear_refs clears the accessed bit of every page of the process, and /proc/<pid>/smaps then says, per
// mapping, how much was accessed since (`Referenced`). On a machine whose kernel isolates page tables without PCIDs,
// every system call empties the TLB, so each page an answer touches between two system calls costs a page walk
// (docs/PERFORMANCE.md, "Pages an answer touches"); this counts them where the CPU's own counters cannot be read.

const PAGE_KIB = 4;

/** What a mapping holds, by its name and permissions: the parts an answer's pages are counted in. */
function partOf(permissions: string, name: string): string {
  if (name === '[heap]') return 'C allocator (main arena)';
  if (name.startsWith('[')) return name;
  if (name === '') {
    if (permissions.includes('x')) return 'compiled code (V8)';
    return permissions.includes('w') ? 'V8 heap, other arenas, buffers' : 'other anonymous';
  }
  const isNode = /\/node$/.test(name);
  if (permissions.includes('x')) return isNode ? "Node.js's code" : "libraries' code";
  return isNode ? "Node.js's data" : "libraries' data";
}

/** Pages accessed since the last clear_refs, by part (smaps' `Referenced`, in 4 KiB pages). */
export function touchedPagesByPart(smaps: string): Map<string, number> {
  const parts = new Map<string, number>();
  let part = '';
  for (const line of smaps.split('\n')) {
    // A mapping's header: "start-end perms offset dev inode [name]"; its fields follow, one per line.
    const fields = line.split(/\s+/);
    if (fields.length >= 5 && fields[0]?.includes('-') && /^[r-][w-][x-][ps]$/.test(fields[1] ?? '')) {
      part = partOf(fields[1] ?? '', fields.slice(5).join(' '));
      continue;
    }
    if (!line.startsWith('Referenced:')) continue;
    const kib = Number(fields[1]);
    if (kib > 0) parts.set(part, (parts.get(part) ?? 0) + kib / PAGE_KIB);
  }
  return parts;
}

/** Sends `request` on `socket` and settles once a whole answer (head and Content-Length's bytes) has arrived. */
function answerOn(socket: net.Socket, request: string): Promise<void> {
  let received = Buffer.alloc(0);
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const head = received.subarray(0, headEnd).toString('latin1').toLowerCase();
      const length = Number(head.split('\r\ncontent-length: ')[1]?.split('\r\n')[0] ?? 0);
      if (received.length < headEnd + 4 + length) return;
      socket.off('data', onData);
      socket.off('error', reject);
      resolve();
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.write(request);
  });
}

/**
 * The pages the process `pid` touches while it answers `request` once on a warm keep-alive connection (three answers
 * on it first), by part. What else the process runs meanwhile (its timers) counts too: take the median of rounds.
 */
export async function pagesOfOneAnswer(pid: number, port: number, request: string): Promise<Map<string, number>> {
  const socket = net.connect(port, '127.0.0.1');
  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    for (let warm = 0; warm < 3; warm++) await answerOn(socket, request);
    await writeFile(`/proc/${pid}/clear_refs`, '1');
    await answerOn(socket, request);
    return touchedPagesByPart(await readFile(`/proc/${pid}/smaps`, 'utf8'));
  } finally {
    socket.destroy();
  }
}

/** The sum of every part's pages. */
export function totalPages(parts: Map<string, number>): number {
  let total = 0;
  for (const pages of parts.values()) total += pages;
  return total;
}
