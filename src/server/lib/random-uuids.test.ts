import { describe, expect, it } from 'vitest';
import { createRandomUuids } from './random-uuids.js';

/** RFC 9562's layout of a version 4 UUID: the version nibble 4, the variant bits 10 (8, 9, a or b). */
const VERSION_4_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('random UUIDs', () => {
  it('gives version 4 UUIDs, none twice, across many batches', () => {
    const nextUuid = createRandomUuids();
    const seen = new Set<string>();
    for (let index = 0; index < 5_000; index++) {
      const uuid = nextUuid();
      expect(uuid).toMatch(VERSION_4_UUID);
      seen.add(uuid);
    }
    expect(seen.size).toBe(5_000);
  });

  it('spreads its randomness over every free digit, as a random source must', () => {
    const nextUuid = createRandomUuids();
    // Each of the 30 free hex digits of 4,096 ids: every value 0 to f appears (a fixed or stuck digit would not).
    const digitsAt = Array.from({ length: 36 }, () => new Set<string>());
    for (let index = 0; index < 4_096; index++) {
      const uuid = nextUuid();
      for (let position = 0; position < uuid.length; position++) digitsAt[position]!.add(uuid[position]!);
    }
    const free = digitsAt.filter((_, position) => ![8, 13, 14, 18, 19, 23].includes(position));
    expect(free.map((digits) => digits.size)).toEqual(new Array(30).fill(16));
    expect([...digitsAt[14]!]).toEqual(['4']);
    expect([...digitsAt[19]!].sort()).toEqual(['8', '9', 'a', 'b']);
  });

  it('gives two sources different ids', () => {
    const first = createRandomUuids();
    const second = createRandomUuids();
    expect(first()).not.toBe(second());
  });
});
