import { randomFillSync } from 'node:crypto';

// Random (version 4) UUIDs for request ids, many per second on the warm Composer door (issue 34). Node's randomUUID
// draws its bytes from a pool, as this does, but builds each id from twenty string concatenations: about 200 ns and
// 600 bytes of short-lived strings per id, and one more copy when node:http checks the header. Here a batch of ids is
// formatted into one string at a time, and each id is a slice of it: 75 ns, one small object, the same randomness
// (crypto's randomFillSync, RFC 9562 §5.4's version and variant bits). A slice keeps its batch's 9 KB string alive
// while it is held: request ids live as long as their request and its log line.

/** Ids formatted per refill: one call into crypto and one string of 9,216 characters for 256 ids. */
const IDS_PER_BATCH = 256;
const BYTES_PER_ID = 16;
const CHARACTERS_PER_ID = 36;
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
/** A dash goes before these bytes: xxxxxxxx-xxxx-4xxx-Nxxx-xxxxxxxxxxxx. */
const isDashBefore = (byteIndex: number) => byteIndex === 4 || byteIndex === 6 || byteIndex === 8 || byteIndex === 10;

/** A source of random UUIDs as lowercase text; each source keeps its own pool. */
export function createRandomUuids(): () => string {
  const random = Buffer.alloc(IDS_PER_BATCH * BYTES_PER_ID);
  const text = Buffer.alloc(IDS_PER_BATCH * CHARACTERS_PER_ID);
  let batch = '';
  let next = IDS_PER_BATCH;
  const refill = () => {
    randomFillSync(random);
    let out = 0;
    for (let id = 0; id < IDS_PER_BATCH; id++) {
      const first = id * BYTES_PER_ID;
      random[first + 6] = (random[first + 6]! & 0x0f) | 0x40; // version 4
      random[first + 8] = (random[first + 8]! & 0x3f) | 0x80; // variant 10
      for (let byte = 0; byte < BYTES_PER_ID; byte++) {
        if (isDashBefore(byte)) text[out++] = 0x2d;
        const value = random[first + byte]!;
        text[out++] = HEX_DIGITS[value >> 4]!;
        text[out++] = HEX_DIGITS[value & 0x0f]!;
      }
    }
    batch = text.toString('latin1');
    next = 0;
  };
  return () => {
    if (next === IDS_PER_BATCH) refill();
    const start = next * CHARACTERS_PER_ID;
    next++;
    return batch.slice(start, start + CHARACTERS_PER_ID);
  };
}
