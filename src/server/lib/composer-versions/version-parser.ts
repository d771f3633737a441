// Composer's version rules (composer/semver VersionParser), so that the versions we publish are the
// ones the composer client itself would compute from the same tags and branches.

export type Stability = 'stable' | 'RC' | 'beta' | 'alpha' | 'dev';

// Composer's patterns rely on PCRE's backtrack limit and possessive quantifiers; V8 has neither, and tags and
// composer.json versions are the seller's text. So each pattern below accepts Composer's language with at most
// one way to match a given string (checked by src/server/lib/regex-safety.test.ts), and input is bounded first.

/**
 * Longest version string we parse. Real tags are short (`v2.13.0-beta.4`, `2024.01.15.1`: under 30 characters);
 * 128 leaves room for long build metadata and keeps a seller's hostile tag from costing more than microseconds.
 */
export const VERSION_MAX_LENGTH = 128;

// Composer writes the stability number as `((?:[.-]?\d+)*+)`: possessive, so a run of digits is read once.
// `(?:[.-]?\d)*` is the same language with exactly one way to read it.
const MODIFIER = '[._-]?(?:(stable|beta|b|RC|alpha|a|patch|pl|p)((?:[.-]?\\d)*))?([.-]?dev)?';
const STABILITIES = 'stable|RC|beta|alpha|dev';

const aliasPattern = /^([^,\s]+) +as +([^,\s]+)$/;
const stabilityFlagPattern = new RegExp(`@(?:${STABILITIES})$`, 'i');
const buildMetadataPattern = /^([^,\s+]+)\+\S+$/;
const classicalPattern = new RegExp(`^v?(\\d{1,5})(\\.\\d+)?(\\.\\d+)?(\\.\\d+)?${MODIFIER}$`, 'i');
// Date and date-time versions (CalVer) in two steps: where the date ends is fixed by the modifier that follows it
// (a date holds no letters), then the date alone is checked against Composer's date rule, at most two numeric
// parts after the date: `\d{4}(?:[.:-]?\d{2}){1,6}(?:[.:-]?\d{1,3}){0,2}`, which reads at most 30 characters.
const datePattern = new RegExp(`^v?(\\d[\\d.:-]*?)${MODIFIER}$`, 'i');
const dateRulePattern = /^\d{4}(?:[.:-]?\d{2}){1,6}(?:[.:-]?\d{1,3}){0,2}$/;
const devSuffixPattern = /^(.*?)[.-]?dev$/i;
const numericBranchPattern = /^v?(\d+)(\.(?:\d+|[xX*]))?(\.(?:\d+|[xX*]))?(\.(?:\d+|[xX*]))?$/i;
const stabilityModifierPattern = new RegExp(`${MODIFIER}$`, 'i');
/** What JavaScript's `.` stops at: the ported `#.+$` and `\+.*$` only ever matched on a version's last line. */
const LINE_TERMINATORS = ['\n', '\r', '\u2028', '\u2029'];

export class InvalidVersionError extends Error {}

function expandStability(stability: string): string {
  switch (stability.toLowerCase()) {
    case 'a':
      return 'alpha';
    case 'b':
      return 'beta';
    case 'p':
    case 'pl':
      return 'patch';
    case 'rc':
      return 'RC';
    default:
      return stability.toLowerCase();
  }
}

/** Normalizes a version string as `VersionParser::normalize` does; throws InvalidVersionError otherwise. */
export function normalizeVersion(input: string): string {
  let version = input.trim();
  const original = version;
  if (version.length > VERSION_MAX_LENGTH) throw new InvalidVersionError(`Invalid version string "${original}"`);

  const alias = aliasPattern.exec(version);
  if (alias) version = alias[1]!;

  const flag = stabilityFlagPattern.exec(version);
  if (flag) version = version.slice(0, version.length - flag[0].length);

  // master, trunk and default used to be valid constraints in Composer 1
  if (version === 'master' || version === 'trunk' || version === 'default') version = `dev-${version}`;

  if (version.toLowerCase().startsWith('dev-')) return `dev-${version.slice(4)}`;

  const metadata = buildMetadataPattern.exec(version);
  if (metadata) version = metadata[1]!;

  let matches = classicalPattern.exec(version);
  let modifierIndex: number | undefined;
  if (matches) {
    version = matches[1]! + (matches[2] || '.0') + (matches[3] || '.0') + (matches[4] || '.0');
    modifierIndex = 5;
  } else {
    matches = datePattern.exec(version);
    if (matches && !dateRulePattern.test(matches[1]!)) matches = null;
    if (matches) {
      version = matches[1]!.replace(/\D/g, '.');
      modifierIndex = 2;
    }
  }

  if (matches && modifierIndex !== undefined) {
    const stability = matches[modifierIndex];
    if (stability) {
      if (stability === 'stable') return version;
      const number = matches[modifierIndex + 1];
      version += `-${expandStability(stability)}${number ? number.replace(/^[.-]+/, '') : ''}`;
    }
    if (matches[modifierIndex + 2]) version += '-dev';
    return version;
  }

  const devBranch = devSuffixPattern.exec(version);
  if (devBranch) {
    // a name ending in -dev is only a version when what precedes it is numeric
    const normalized = normalizeBranch(devBranch[1]!);
    if (!normalized.includes('dev-')) return normalized;
  }

  throw new InvalidVersionError(`Invalid version string "${original}"`);
}

/** Normalizes a branch name as `VersionParser::normalizeBranch` does (`1.x` → `1.9999999.9999999.9999999-dev`). */
export function normalizeBranch(input: string): string {
  const name = input.trim();
  const matches = numericBranchPattern.exec(name);
  if (matches) {
    let version = '';
    for (let part = 1; part < 5; part++) {
      version += matches[part] !== undefined ? matches[part]!.replace('*', 'x').replace('X', 'x') : '.x';
    }
    return `${version.replaceAll('x', '9999999')}-dev`;
  }
  return `dev-${name}`;
}

function lastLine(text: string): string {
  return text.slice(Math.max(...LINE_TERMINATORS.map((terminator) => text.lastIndexOf(terminator))) + 1);
}

/** Composer's `preg_replace('{#.+$}', '')`: from the last line's first `#`, when something follows it. */
function withoutReference(version: string): string {
  const hash = version.indexOf('#', version.length - lastLine(version).length);
  return hash !== -1 && hash < version.length - 1 ? version.slice(0, hash) : version;
}

/**
 * What Composer's `{modifier}(?:\+.*)?$` reads its modifier from: the modifier holds no `+` and no line break, so
 * the match lies on the last line and ends at its first `+`.
 */
function withoutBuildMetadata(line: string): string {
  const plus = line.indexOf('+');
  return plus === -1 ? line : line.slice(0, plus);
}

/** The stability of a version string, as `VersionParser::parseStability`. */
export function parseStability(input: string): Stability {
  const version = withoutReference(input);
  if (version.startsWith('dev-') || version.endsWith('-dev')) return 'dev';
  const match = stabilityModifierPattern.exec(withoutBuildMetadata(lastLine(version.toLowerCase())));
  if (match?.[3]) return 'dev';
  switch (match?.[1]) {
    case 'beta':
    case 'b':
      return 'beta';
    case 'alpha':
    case 'a':
      return 'alpha';
    case 'rc':
      return 'RC';
    default:
      return 'stable';
  }
}

export type TagVersion = { version: string; normalizedVersion: string };

/**
 * What a git tag publishes, following Composer's VCS repository: a `release-` prefix is dropped and the
 * tag must normalize; undefined means Composer would skip the tag.
 */
export function versionFromTag(tag: string): TagVersion | undefined {
  const version = tag.replace(/^release-/, '');
  try {
    const normalizedVersion = normalizeVersion(version);
    if (normalizedVersion.startsWith('dev-')) return undefined;
    return { version, normalizedVersion };
  } catch (error) {
    if (error instanceof InvalidVersionError) return undefined;
    throw error;
  }
}

/**
 * What a git branch publishes, as Composer's VCS repository names it: numeric branches become
 * `1.x-dev` style versions (keeping a `v` prefix), every other branch `dev-{name}`.
 */
export function versionFromBranch(branch: string): TagVersion {
  const normalizedVersion = normalizeBranch(branch);
  if (normalizedVersion.startsWith('dev-') || normalizedVersion === '9999999-dev') {
    return { version: `dev-${branch}`, normalizedVersion };
  }
  const prefix = branch.startsWith('v') ? 'v' : '';
  return { version: prefix + normalizedVersion.replace(/(\.9{7})+/g, '.x'), normalizedVersion };
}
