import { describe, expect, it } from 'vitest';
import { itAnswersEachCase } from '../../../test/support/case-tables.js';
import {
  generateHolderToken,
  HOLDER_TOKEN_LENGTH,
  holderTokenChecksum,
  holderTokenHint,
  isWellFormedHolderToken,
  toBase62,
} from './holder-token-format.js';

/** A well-formed token: its last six characters are the base62 CRC32 of the rest. */
const token = 'pgc_abcdefghijklmnopqrstuvwxyzABCD1HANlA';

// Vectors computed apart from this code (Python's zlib.crc32 and a base62 of 0-9A-Za-z), so a scanner written in
// any language that follows the documented format agrees with ours.
describe('holder token format', () => {
  it('writes the CRC32 of the body in base62, left-padded to six characters', () => {
    expect(holderTokenChecksum(`pgc_${'0'.repeat(30)}`)).toBe('3nJWFi');
    expect(holderTokenChecksum('pgc_abcdefghijklmnopqrstuvwxyzABCD')).toBe('1HANlA');
    expect(toBase62(0, 6)).toBe('000000');
    expect(toBase62(0xffffffff, 6)).toBe('4gfFC3');
    expect(toBase62(61, 6)).toBe('00000z');
  });

  itAnswersEachCase(isWellFormedHolderToken, {
    'accepts a token whose checksum matches': [
      [`pgc_${'0'.repeat(30)}3nJWFi`, true],
      [token, true],
    ],
  });

  it('generates tokens of the documented shape that pass their own check, each different', () => {
    const tokens = new Set(Array.from({ length: 50 }, () => generateHolderToken()));
    expect(tokens.size).toBe(50);
    for (const token of tokens) {
      expect(token).toMatch(/^pgc_[0-9A-Za-z]{36}$/);
      expect(token).toHaveLength(HOLDER_TOKEN_LENGTH);
      expect(isWellFormedHolderToken(token)).toBe(true);
    }
  });

  itAnswersEachCase(isWellFormedHolderToken, {
    'tells noise from a token: wrong checksum, one changed character, wrong prefix, length or alphabet': [
      ['pgc_abcdefghijklmnopqrstuvwxyzABCD1HANlB', false],
      ['pgc_abcdefghijklmnopqrstuvwxyzABCE1HANlA', false],
      [`pgx_${token.slice(4)}`, false],
      [token.slice(0, -1), false],
      [`${token}0`, false],
      ['pgc_abcdefghijklmnopqrstuvwxyzAB-D1HANlA', false],
      ['', false],
      ['x'.repeat(10_000), false],
    ],
    'says an older token (base64url, no checksum) is not of the current format': [
      ['pgc_5mN0Jv0hQy3cX1Jq6Vv7S6d3Z1yq2Ue8', false],
    ],
  });

  it('hints with the last four characters only', () => {
    expect(holderTokenHint('pgc_abcdefghijklmnopqrstuvwxyzABCD1HANlA')).toBe('ANlA');
  });
});
