import { describe, expect, it } from 'vitest';
import {
  CONSTRAINT_MAX_LENGTH,
  InvalidConstraintError,
  matchesConstraint,
  parseConstraints,
  phpVersionCompare,
} from './version-constraints.js';

// Vectors from the real composer/semver (Debian's Composer 2.5.5, /usr/share/php/Composer/Semver): for each
// constraint, which of these normalized versions it matches, or null when Composer cannot parse it.
const ONE_RELEASES = ['1.0.0.0', '1.0.0.0-beta1', '1.2.0.0', '1.2.2.0', '1.2.3.0', '1.3.0.0', '1.5.0.0'];
const TWO_RELEASES = ['2.0.0.0', '2.0.4.0', '2.0.5.0', '2.1.3.0'];
const ZERO_RELEASES_AFTER_TWO = ['0.3.5.0', '0.4.0.0', '0.0.3.0'];
const THREE_RELEASES = ['3.1.0.0', '3.1.0.1'];
const ONE_DEV = '1.9999999.9999999.9999999-dev';
const VERSIONS: string[] = [
  '0.9.0.0',
  ...ONE_RELEASES,
  ...TWO_RELEASES,
  ...ZERO_RELEASES_AFTER_TWO,
  ...THREE_RELEASES,
  'dev-main',
  ONE_DEV,
];

/** Every version but the ones named, in VERSIONS' order, for constraints that match nearly all of them. */
const allBut = (...excluded: string[]) => VERSIONS.filter((version) => !excluded.includes(version));

/** Spellings of one constraint that Composer matches alike share a row. */
const CASES: [constraints: string[], matches: string[] | null][] = [
  [
    ['>=1.0,<1.2.3', '>=1.0 <1.2.3'],
    ['1.0.0.0', '1.0.0.0-beta1', '1.2.0.0', '1.2.2.0'],
  ],
  [
    ['<1.2.3|>=2.0,<2.0.5', '<1.2.3 || >=2.0 <2.0.5'],
    ['0.9.0.0', '1.0.0.0', '1.0.0.0-beta1', '1.2.0.0', '1.2.2.0', '2.0.0.0', '2.0.4.0', ...ZERO_RELEASES_AFTER_TWO],
  ],
  [
    ['^1.2', '~1.2', '^1.2.0-beta2'],
    ['1.2.0.0', '1.2.2.0', '1.2.3.0', '1.3.0.0', '1.5.0.0', ONE_DEV],
  ],
  [['^0.3'], ['0.3.5.0']],
  [['^0.0.3'], ['0.0.3.0']],
  [['~1.2.3', '1.2.3', '==1.2.3'], ['1.2.3.0']],
  [
    ['~1', '1.*'],
    [...ONE_RELEASES, ONE_DEV],
  ],
  [['1.2.*'], ['1.2.0.0', '1.2.2.0', '1.2.3.0']],
  [['*'], VERSIONS],
  [['1.0 - 2.0'], [...ONE_RELEASES, '2.0.0.0', '2.0.4.0', '2.0.5.0', ONE_DEV]],
  [['1.0.0 - 2.1.3'], [...ONE_RELEASES, ...TWO_RELEASES, ONE_DEV]],
  [
    ['>= 1.0', '>=1.0@beta'],
    [...ONE_RELEASES, ...TWO_RELEASES, ...THREE_RELEASES, ONE_DEV],
  ],
  [['>=1.0.0-RC1'], allBut('0.9.0.0', '1.0.0.0-beta1', ...ZERO_RELEASES_AFTER_TWO, 'dev-main')],
  [['!=1.5.0'], allBut('1.5.0.0')],
  [['<2.0-beta1'], ['0.9.0.0', ...ONE_RELEASES, ...ZERO_RELEASES_AFTER_TWO, ONE_DEV]],
  [['dev-main'], ['dev-main']],
  [['<=3.1'], allBut('3.1.0.1', 'dev-main')],
  [['>3.1'], ['3.1.0.1']],
  [['v1.4.0'], []],
  [['foo', '>=1.0,', '~>1.2', '1.0 -', '>=', '', '>=a.b', '1.2.3.4.5'], null],
  [['<1.0 as 1.0'], ['0.9.0.0', ...ZERO_RELEASES_AFTER_TWO]],
  [['1.x-dev'], [ONE_DEV]],
];

/** Constraints Composer accepts but an advisory never needs: refused here (stricter is safe, laxer is not). */
const REFUSED_ON_PURPOSE = new Set(['<1.0 as 1.0']);

describe('parseConstraints and matchesConstraint', () => {
  for (const [constraints, matches] of CASES) {
    for (const constraint of constraints) {
      if (matches === null || REFUSED_ON_PURPOSE.has(constraint)) {
        it(`refuses ${JSON.stringify(constraint)}`, () => {
          expect(() => parseConstraints(constraint)).toThrow(InvalidConstraintError);
        });
      } else {
        it(`matches what Composer matches for ${JSON.stringify(constraint)}`, () => {
          const parsed = parseConstraints(constraint);
          expect(VERSIONS.filter((version) => matchesConstraint(parsed, version))).toEqual(matches);
        });
      }
    }
  }

  it('refuses a constraint longer than the bound before reading it', () => {
    expect(() => parseConstraints(`>=${'1'.repeat(CONSTRAINT_MAX_LENGTH)}`)).toThrow(/at most/);
  });

  it("says why in Composer's words", () => {
    expect(() => parseConstraints('~>1.2')).toThrow('Invalid operator "~>"');
  });
});

describe('phpVersionCompare', () => {
  it('orders stabilities and numbers as PHP does', () => {
    expect(phpVersionCompare('1.0.0.0-beta1', '1.0.0.0')).toBe(-1);
    expect(phpVersionCompare('1.0rc1', '1.0.0')).toBe(-1);
    expect(phpVersionCompare('1.0-patch1', '1.0')).toBe(1);
    expect(phpVersionCompare('1.10.0.0', '1.9.0.0')).toBe(1);
    expect(phpVersionCompare('1.0.0.0-dev', '1.0.0.0-alpha1')).toBe(-1);
    expect(phpVersionCompare('2.0.0.0', '2.0.0.0')).toBe(0);
  });
});
