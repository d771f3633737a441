import { describe, expect, it } from 'vitest';
import { hasNothingLoaded } from './query-state';

describe('hasNothingLoaded', () => {
  it('is true for a first load that failed', () => {
    expect(hasNothingLoaded({ isError: true, data: undefined })).toBe(true);
  });

  it('keeps what was loaded when a later refetch fails', () => {
    expect(hasNothingLoaded({ isError: true, data: [{ id: 'p1' }] })).toBe(false);
    expect(hasNothingLoaded({ isError: true, data: [] })).toBe(false);
  });

  it('is false while loading and after a good answer', () => {
    expect(hasNothingLoaded({ isError: false, data: undefined })).toBe(false);
    expect(hasNothingLoaded({ isError: false, data: [] })).toBe(false);
  });
});
