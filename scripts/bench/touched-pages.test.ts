import { describe, expect, it } from 'vitest';
import { totalPages, touchedPagesByPart } from './touched-pages.js';

const SMAPS = `00400000-02a1b000 r-xp 00000000 08:01 1234                               /usr/bin/node
Size:              39020 kB
Referenced:          856 kB
02a1b000-02a1e000 r--p 0261b000 08:01 1234                               /usr/bin/node
Referenced:          12 kB
0565d000-05689000 rw-p 00000000 00:00 0                                  [heap]
Referenced:          320 kB
7f0000000000-7f0000040000 rw-p 00000000 00:00 0
Referenced:          100 kB
7f0000040000-7f0000080000 rwxp 00000000 00:00 0
Referenced:          40 kB
7f1000000000-7f1000100000 r-xp 00000000 08:01 99                         /usr/lib/x86_64-linux-gnu/libc.so.6
Referenced:          0 kB
7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0                          [stack]
Referenced:          16 kB
`;

describe('the pages an answer touches, read from smaps', () => {
  it('counts each mapping’s referenced pages in the part it belongs to, and leaves out untouched ones', () => {
    const parts = touchedPagesByPart(SMAPS);
    expect(Object.fromEntries(parts)).toEqual({
      "Node.js's code": 214,
      "Node.js's data": 3,
      'C allocator (main arena)': 80,
      'V8 heap, other arenas, buffers': 25,
      'compiled code (V8)': 10,
      '[stack]': 4,
    });
    expect(totalPages(parts)).toBe(336);
  });
});
