import { readFile } from 'node:fs/promises';

// What a process's resident memory is made of, from /proc/<pid>/smaps (Linux), for the memory figure (bench/memory.ts).
// Mappings say little by name: the parts are told apart by their shape, as glibc and V8 lay them out on 64-bit Linux.
//  - files: mapped files (the node binary with its ICU data, shared libraries).
//  - C allocator: glibc's main arena ([heap]) and its thread arenas, each a 64 MiB-aligned block of 64 MiB whose
//    unused end is mapped without access; memory freed there stays resident until the arena's top is free.
//  - WebAssembly memory: a read-write block followed by a reservation without access of a gigabyte or more (V8
//    reserves the guard regions of a 32-bit WebAssembly memory); PGlite's is its only one.
//  - compiled code: anonymous executable mappings (V8's JIT code and WebAssembly's compiled functions).
//  - V8 heap and other anonymous memory: the rest (V8's pages, large Buffers and ArrayBuffers, thread stacks).

export type ResidentParts = {
  files: number;
  cAllocator: number;
  webAssemblyMemory: number;
  compiledCode: number;
  otherAnonymous: number;
  total: number;
};

type Mapping = { start: number; end: number; permissions: string; name: string; rss: number };

const ARENA_BYTES = 64 * 1024 * 1024;
const GUARD_RESERVATION_BYTES = 1024 * 1024 * 1024;

function parseSmaps(text: string): Mapping[] {
  const mappings: Mapping[] = [];
  let current: Mapping | undefined;
  for (const line of text.split('\n')) {
    const header = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      current = {
        start: Number.parseInt(header[1]!, 16),
        end: Number.parseInt(header[2]!, 16),
        permissions: header[3]!,
        name: header[4]!.trim(),
        rss: 0,
      };
      mappings.push(current);
    } else if (current && line.startsWith('Rss:')) {
      current.rss = Number(/(\d+) kB/.exec(line)?.[1] ?? 0) * 1024;
    }
  }
  return mappings;
}

function partOf(mapping: Mapping, next: Mapping | undefined): keyof Omit<ResidentParts, 'total'> {
  if (mapping.name === '[heap]') return 'cAllocator';
  if (mapping.name !== '' && !mapping.name.startsWith('[')) return 'files';
  if (mapping.name !== '') return 'otherAnonymous';
  const size = mapping.end - mapping.start;
  const followedByNoAccess = next?.start === mapping.end && next.permissions.startsWith('---');
  if (mapping.start % ARENA_BYTES === 0) {
    if (followedByNoAccess && size + (next.end - next.start) === ARENA_BYTES) return 'cAllocator';
    if (size === ARENA_BYTES && !followedByNoAccess) return 'cAllocator';
  }
  if (followedByNoAccess && next.end - next.start >= GUARD_RESERVATION_BYTES && mapping.permissions.startsWith('rw')) {
    return 'webAssemblyMemory';
  }
  if (mapping.permissions.includes('x')) return 'compiledCode';
  return 'otherAnonymous';
}

/** The resident bytes of process `pid` by part. */
export async function residentParts(pid: number): Promise<ResidentParts> {
  const mappings = parseSmaps(await readFile(`/proc/${pid}/smaps`, 'utf8'));
  const parts: ResidentParts = {
    files: 0,
    cAllocator: 0,
    webAssemblyMemory: 0,
    compiledCode: 0,
    otherAnonymous: 0,
    total: 0,
  };
  mappings.forEach((mapping, index) => {
    parts[partOf(mapping, mappings[index + 1])] += mapping.rss;
    parts.total += mapping.rss;
  });
  return parts;
}
