import { describe, expect, it } from 'vitest';
import {
  normalizeBranch,
  normalizeVersion,
  parseStability,
  VERSION_MAX_LENGTH,
  versionFromBranch,
  versionFromTag,
} from './version-parser.js';

// Test vectors published with composer/semver (tests/VersionParserTest.php).
const normalizedVersions: [string, string][] = [
  ['1.0.0', '1.0.0.0'],
  ['1.2.3.4', '1.2.3.4'],
  ['1.0.0RC1dev', '1.0.0.0-RC1-dev'],
  ['1.0.0-rC15-dev', '1.0.0.0-RC15-dev'],
  ['1.0.0.RC.15-dev', '1.0.0.0-RC15-dev'],
  ['1.0.0-rc1', '1.0.0.0-RC1'],
  ['1.0.0.pl3-dev', '1.0.0.0-patch3-dev'],
  ['1.0-dev', '1.0.0.0-dev'],
  ['0', '0.0.0.0'],
  ['10.4.13-beta', '10.4.13.0-beta'],
  ['10.4.13beta2', '10.4.13.0-beta2'],
  ['10.4.13beta.2', '10.4.13.0-beta2'],
  ['v1.13.11-beta.0', '1.13.11.0-beta0'],
  ['1.13.11.0-beta0', '1.13.11.0-beta0'],
  ['10.4.13-b', '10.4.13.0-beta'],
  ['10.4.13-b5', '10.4.13.0-beta5'],
  ['v1.0.0', '1.0.0.0'],
  ['2010.01', '2010.01.0.0'],
  ['2010.01.02', '2010.01.02.0'],
  ['2010.1.555', '2010.1.555.0'],
  ['2010.10.200', '2010.10.200.0'],
  ['20230131.0.0', '20230131.0.0'],
  ['202301310000.0.0', '202301310000.0.0'],
  ['v20100102', '20100102'],
  ['20100102', '20100102'],
  ['20100102.0', '20100102.0'],
  ['20100102.1.0', '20100102.1.0'],
  ['20100102.0.3', '20100102.0.3'],
  ['2010-01-02-10-20-30.0.3', '2010.01.02.10.20.30.0.3'],
  ['2010-01-02-10-20-30.5', '2010.01.02.10.20.30.5'],
  ['2010-01-02', '2010.01.02'],
  ['2012.06.07', '2012.06.07.0'],
  ['2010-01-02.5', '2010.01.02.5'],
  ['20100102-203040', '20100102.203040'],
  ['20100102.x-dev', '20100102.9999999.9999999.9999999-dev'],
  ['20100102.203040.x-dev', '20100102.203040.9999999.9999999-dev'],
  ['20100102203040-10', '20100102203040.10'],
  ['20100102-203040-p1', '20100102.203040-patch1'],
  ['201903.0', '201903.0'],
  ['201903.x-dev', '201903.9999999.9999999.9999999-dev'],
  ['201903.0-p2', '201903.0-patch2'],
  ['dev-master', 'dev-master'],
  ['master', 'dev-master'],
  ['dev-trunk', 'dev-trunk'],
  ['1.x-dev', '1.9999999.9999999.9999999-dev'],
  ['dev-feature-foo', 'dev-feature-foo'],
  ['DEV-FOOBAR', 'dev-FOOBAR'],
  ['dev-feature/foo', 'dev-feature/foo'],
  ['dev-feature+issue-1', 'dev-feature+issue-1'],
  ['dev-master as 1.0.0', 'dev-master'],
  ['dev-load-varnish-only-when-used as ^2.0', 'dev-load-varnish-only-when-used'],
  ['dev-load-varnish-only-when-used@dev as ^2.0@dev', 'dev-load-varnish-only-when-used'],
  ['1.0.0+foo@dev', '1.0.0.0'],
  ['dev-load-varnish-only-when-used@stable', 'dev-load-varnish-only-when-used'],
  ['1.0.0-beta.5+foo', '1.0.0.0-beta5'],
  ['1.0.0+foo', '1.0.0.0'],
  ['1.0.0-alpha.3.1+foo', '1.0.0.0-alpha3.1'],
  ['1.0.0-alpha2.1+foo', '1.0.0.0-alpha2.1'],
  ['1.0.0-alpha-2.1-3+foo', '1.0.0.0-alpha2.1-3'],
  ['1.0.0+foo as 2.0', '1.0.0.0'],
  ['00.01.03.04', '00.01.03.04'],
  ['000.001.003.004', '000.001.003.004'],
  ['0.000.103.204', '0.000.103.204'],
  ['0700', '0700.0.0.0'],
  ['041.x-dev', '041.9999999.9999999.9999999-dev'],
  ['dev-041.003', 'dev-041.003'],
  ['dev-1.0.0-dev<1.0.5-dev', 'dev-1.0.0-dev<1.0.5-dev'],
  ['dev-foo bar', 'dev-foo bar'],
  [' 1.0.0', '1.0.0.0'],
  ['1.0.0 ', '1.0.0.0'],
];

const invalidVersions = [
  '',
  'a',
  '1.0.0-meh',
  '1.0.0.0.0',
  'feature-foo',
  '1.0.0+foo bar',
  '1.0.1-SNAPSHOT',
  '1.0.0<1.0.5-dev',
  '1.0.0-dev<1.0.5-dev',
  'foo bar-dev',
  '1.0 .2',
  ' as ',
  ' as 1.2',
  '^',
  '^8 || ^',
  '~',
  '~1 ~',
  '~1',
  '^1',
  '1.*',
  '20100102.0.3.4',
];

const normalizedBranches: [string, string][] = [
  ['v1.x', '1.9999999.9999999.9999999-dev'],
  ['v1.*', '1.9999999.9999999.9999999-dev'],
  ['v1.0', '1.0.9999999.9999999-dev'],
  ['2.0', '2.0.9999999.9999999-dev'],
  ['v1.0.x', '1.0.9999999.9999999-dev'],
  ['v1.0.3.*', '1.0.3.9999999-dev'],
  ['v2.4.0', '2.4.0.9999999-dev'],
  ['2.4.4', '2.4.4.9999999-dev'],
  ['master', 'dev-master'],
  ['trunk', 'dev-trunk'],
  ['feature-a', 'dev-feature-a'],
  ['FOOBAR', 'dev-FOOBAR'],
  ['feature+issue-1', 'dev-feature+issue-1'],
];

const stabilities: [string, string][] = [
  ['stable', '1'],
  ['stable', '1.0'],
  ['stable', '3.2.1'],
  ['stable', 'v3.2.1'],
  ['dev', 'v2.0.x-dev'],
  ['dev', 'v2.0.x-dev#abc123'],
  ['dev', 'v2.0.x-dev#trunk/@123'],
  ['RC', '3.0-RC2'],
  ['dev', 'dev-master'],
  ['dev', '3.1.2-dev'],
  ['dev', 'dev-feature+issue-1'],
  ['stable', '3.1.2-p1'],
  ['stable', '3.1.2-pl2'],
  ['stable', '3.1.2-patch'],
  ['alpha', '3.1.2-alpha5'],
  ['beta', '3.1.2-beta'],
  ['beta', '2.0B1'],
  ['alpha', '1.2.0a1'],
  ['alpha', '1.2_a1'],
  ['RC', '2.0.0rc1'],
  ['alpha', '1.0.0-alpha11+cs-1.1.0'],
  ['dev', '1-2_dev'],
];

describe('Composer version normalization', () => {
  it.each(normalizedVersions)('normalizes %j to %j', (input, expected) => {
    expect(normalizeVersion(input)).toBe(expected);
  });

  it.each(invalidVersions)('refuses %j', (input) => {
    expect(() => normalizeVersion(input)).toThrow(/Invalid version string/);
  });

  it.each(normalizedBranches)('normalizes branch %j to %j', (input, expected) => {
    expect(normalizeBranch(input)).toBe(expected);
  });

  it.each(stabilities)('reads stability %s from %j', (expected, input) => {
    expect(parseStability(input)).toBe(expected);
  });
});

describe('versions published from git references', () => {
  it('publishes tags with a v or release- prefix and skips invalid ones', () => {
    expect(versionFromTag('v1.1.0')).toEqual({ version: 'v1.1.0', normalizedVersion: '1.1.0.0' });
    expect(versionFromTag('release-2.0.0')).toEqual({ version: '2.0.0', normalizedVersion: '2.0.0.0' });
    expect(versionFromTag('not-a-version')).toBeUndefined();
    expect(versionFromTag('dev-main')).toBeUndefined();
  });

  it('names numeric branches like 1.x-dev and other branches dev-{name}', () => {
    expect(versionFromBranch('main')).toEqual({ version: 'dev-main', normalizedVersion: 'dev-main' });
    expect(versionFromBranch('1.x')).toEqual({
      version: '1.x-dev',
      normalizedVersion: '1.9999999.9999999.9999999-dev',
    });
    expect(versionFromBranch('v2.0')).toEqual({ version: 'v2.0.x-dev', normalizedVersion: '2.0.9999999.9999999-dev' });
    expect(versionFromBranch('feature/login')).toEqual({
      version: 'dev-feature/login',
      normalizedVersion: 'dev-feature/login',
    });
  });
});

// Tags, branches and composer.json versions are the seller's text. Composer's patterns, ported as they were, tried
// every way of splitting a run of digits (about 2.3 times longer per extra digit: 25 digits took seconds, 50 would
// take days); each of these is now answered at once.
describe('hostile tags and versions', () => {
  const digits = (count: number) => '1'.repeat(count);

  it.each([
    ['a 50-digit stability number and a refused character', `1.0.0-beta${digits(50)}!`],
    ['a 50-digit patch number and a refused character', `1.0.0-p${digits(50)}!`],
    ['a 50-digit number after a date and a refused character', `2010-01-02-alpha${digits(50)}!`],
    ['25 digits and a refused character', `${digits(25)}!`],
    ['50 digits and a refused character', `${digits(50)}!`],
    ['dotted digits and a refused character', `v${'1.'.repeat(60)}1!`],
    ['dashed digits and a refused character', `1.0-${'1-'.repeat(55)}x`],
    ['a run of dashes', '-'.repeat(120)],
    ['a run of dashes ending in dev', `${'-'.repeat(120)}dev`],
    ['date separators and a refused character', `2010${'-01'.repeat(40)}!`],
  ])('skips a tag of %s', (_shape, tag) => {
    expect(tag.length).toBeLessThanOrEqual(VERSION_MAX_LENGTH);
    expect(versionFromTag(tag)).toBeUndefined();
  });

  it('still publishes a long stability number within the length bound', () => {
    expect(versionFromTag(`v1.0.0-beta${digits(100)}`)).toEqual({
      version: `v1.0.0-beta${digits(100)}`,
      normalizedVersion: `1.0.0.0-beta${digits(100)}`,
    });
  });

  it('refuses a version longer than the bound, however well formed', () => {
    const version = `1.0.0-beta${digits(VERSION_MAX_LENGTH)}`;
    expect(() => normalizeVersion(version)).toThrow(/Invalid version string/);
    expect(versionFromTag(version)).toBeUndefined();
  });

  it.each([
    ['a stability number of 100,000 digits', `1.0.0-beta${digits(100_000)}!`],
    ['100,000 plus signs and a line break', `${'+'.repeat(100_000)}\n`],
    ['100,000 hashes and a line break', `${'#'.repeat(100_000)}\n##`],
    ['a stability word before every digit', `${'a1'.repeat(50_000)}!`],
  ])('reads the stability of %s at once', (_shape, version) => {
    expect(parseStability(version)).toBe('stable');
  });

  it('names a branch of 100,000 dotted digits dev-{name} at once', () => {
    const branch = `${'1.'.repeat(50_000)}x`;
    expect(normalizeBranch(branch)).toBe(`dev-${branch}`);
    expect(versionFromBranch(branch).version).toBe(`dev-${branch}`);
  });
});
