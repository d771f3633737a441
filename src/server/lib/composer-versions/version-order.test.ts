import { describe, expect, it } from 'vitest';
import { compareStableVersions, newestStable } from './version-order.js';

describe('compareStableVersions', () => {
  it('compares numerically, part by part', () => {
    expect(compareStableVersions('1.10.0.0', '1.9.0.0')).toBeGreaterThan(0);
    expect(compareStableVersions('2.0.0.0', '10.0.0.0')).toBeLessThan(0);
    expect(compareStableVersions('1.0.0.0', '1.0.0.0')).toBe(0);
    expect(compareStableVersions('2024.01.15', '2023.12.31')).toBeGreaterThan(0);
  });

  it('sorts a patch release after its base, by patch number', () => {
    expect(compareStableVersions('1.0.0.0-patch1', '1.0.0.0')).toBeGreaterThan(0);
    expect(compareStableVersions('1.0.0.0-patch2', '1.0.0.0-patch10')).toBeLessThan(0);
    expect(compareStableVersions('1.0.0.0-patch9', '1.0.1.0')).toBeLessThan(0);
  });
});

describe('newestStable', () => {
  it('picks the highest stable version and skips pre-releases', () => {
    const versions = ['1.9.0.0', '1.10.0.0', '2.0.0.0-beta1', '2.0.0.0-RC1', '1.2.0.0'].map((normalizedVersion) => ({
      normalizedVersion,
    }));
    expect(newestStable(versions)?.normalizedVersion).toBe('1.10.0.0');
  });

  it('finds none among pre-releases only', () => {
    expect(newestStable([{ normalizedVersion: '1.0.0.0-alpha1' }])).toBeUndefined();
    expect(newestStable([])).toBeUndefined();
  });
});
