import { describe, expect, it } from 'vitest';
import {
  describeLicenseTerms,
  isStableEnough,
  LICENSE_CONSTRAINT_MAX_LENGTH,
  parseLicenseTerms,
  termsCoverVersion,
} from './license-terms.js';
import { InvalidConstraintError } from './version-constraints.js';
import { normalizeVersion } from './version-parser.js';

// A license's version terms as Composer reads them: which of a package's versions a `^1.0` license with a minimum
// stability covers. Normalized versions as the package's versions are stored.

const covers = (constraint: string | null, stability: Parameters<typeof parseLicenseTerms>[1], version: string) =>
  termsCoverVersion(parseLicenseTerms(constraint, stability), normalizeVersion(version));

describe('license terms', () => {
  it('covers every version, branches included, without a constraint at dev stability', () => {
    const terms = parseLicenseTerms(null);
    for (const version of ['1.0.0.0', '2.1.0.0-beta1', 'dev-main', '1.9999999.9999999.9999999-dev']) {
      expect(termsCoverVersion(terms, version), version).toBe(true);
    }
  });

  it('matches a constraint as Composer does', () => {
    expect(covers('^1.0', 'dev', 'v1.0.0')).toBe(true);
    expect(covers('^1.0', 'dev', 'v1.1.0')).toBe(true);
    expect(covers('^1.0', 'dev', 'v2.0.0')).toBe(false);
    expect(covers('>=2.0 <3.0', 'dev', '2.5.1')).toBe(true);
    expect(covers('>=2.0 <3.0', 'dev', '3.0.0')).toBe(false);
    expect(covers('^1.0 || ^3.0', 'dev', '3.2.0')).toBe(true);
    // A branch named dev-main is no numbered version: a range never reaches it; a 1.x branch is inside ^1.0.
    expect(termsCoverVersion(parseLicenseTerms('^1.0'), 'dev-main')).toBe(false);
    expect(termsCoverVersion(parseLicenseTerms('^1.0'), '1.9999999.9999999.9999999-dev')).toBe(true);
  });

  it('follows Composer’s stability rules: -beta1 is beta, branches are dev', () => {
    expect(covers('^2.0', 'stable', '2.1.0-beta1')).toBe(false);
    expect(covers('^2.0', 'beta', '2.1.0-beta1')).toBe(true);
    expect(covers('^2.0', 'RC', '2.1.0-beta1')).toBe(false);
    expect(covers('^2.0', 'RC', '2.1.0-RC2')).toBe(true);
    expect(covers(null, 'alpha', '2.1.0-alpha1')).toBe(true);
    expect(covers(null, 'stable', '2.1.0')).toBe(true);
    expect(termsCoverVersion(parseLicenseTerms(null, 'alpha'), 'dev-main')).toBe(false);
    expect(isStableEnough('dev', 'dev')).toBe(true);
    expect(isStableEnough('stable', 'RC')).toBe(true);
  });

  it('refuses a constraint Composer would not parse, and one longer than 200 characters', () => {
    expect(() => parseLicenseTerms('^1.0 ||| nonsense')).toThrow(InvalidConstraintError);
    expect(() => parseLicenseTerms('~>1.0')).toThrow(InvalidConstraintError);
    const long = Array.from({ length: 40 }, (_, index) => `^${index}.0`).join(' || ');
    expect(long.length).toBeGreaterThan(LICENSE_CONSTRAINT_MAX_LENGTH);
    expect(() => parseLicenseTerms(long)).toThrow(/at most 200 characters/);
  });

  it('says what the terms cover in words', () => {
    expect(describeLicenseTerms(parseLicenseTerms('^1.0'))).toBe('^1.0');
    expect(describeLicenseTerms(parseLicenseTerms('^1.0', 'stable'))).toBe('^1.0 (stable releases only)');
    expect(describeLicenseTerms(parseLicenseTerms(null, 'beta'))).toBe('every version (beta, RC and stable releases)');
  });
});
