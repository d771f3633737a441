import { describe, expect, it } from 'vitest';
import { hasForbiddenCharacters } from './input-characters.js';

describe('hasForbiddenCharacters', () => {
  it('finds NUL and other control characters in nested strings and keys', () => {
    expect(hasForbiddenCharacters({ a: [{ b: 'x\u0000y' }] })).toBe(true);
    expect(hasForbiddenCharacters({ 'key\u0001': 'value' })).toBe(true);
    expect(hasForbiddenCharacters(['\u001b[31mred'])).toBe(true);
  });

  it('finds lone surrogates, which have no UTF-8 form', () => {
    expect(hasForbiddenCharacters({ name: 'a\ud800' })).toBe(true);
    expect(hasForbiddenCharacters({ name: 'emoji 😀 and é' })).toBe(false);
  });

  it('lets multi-line text keep tabs and line breaks', () => {
    expect(hasForbiddenCharacters({ description: 'line one\r\n\tline two\n' })).toBe(false);
  });

  it('ignores buffers and survives nesting deeper than the call stack', () => {
    expect(hasForbiddenCharacters({ raw: Buffer.from([0, 1, 2]) })).toBe(false);
    let deep: unknown = 'bottom\u0000';
    for (let level = 0; level < 100_000; level++) deep = [deep];
    expect(hasForbiddenCharacters(deep)).toBe(true);
  });
});
