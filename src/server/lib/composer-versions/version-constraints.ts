import { InvalidVersionError, normalizeVersion, parseStability } from './version-parser.js';

// Composer's version constraints (composer/semver VersionParser::parseConstraints, Constraint::matchSpecific and
// PHP's version_compare), enough to check a seller's "affected versions" before Composer's clients read it, and to
// tell whether a holder's installed version is affected. What is accepted here must parse in Composer too, or every
// holder's `composer audit` would fail on the advisory: so the grammar is Composer's, minus rarities an advisory
// never needs (aliases `as`, `#ref` suffixes, `~1.x-dev`), which are refused.

/** Longest constraint accepted: real advisories' ranges (`>=1.0,<1.4.2|>=2.0,<2.1.1`) are far shorter. */
export const CONSTRAINT_MAX_LENGTH = 256;

export class InvalidConstraintError extends Error {}

type Operator = '==' | '!=' | '<' | '<=' | '>' | '>=';
type SimpleConstraint = { operator: Operator; version: string };
/** Alternatives (`|`), each a conjunction (`,` or space) of simple constraints; an empty conjunction matches all. */
export type VersionConstraint = { alternatives: SimpleConstraint[][] };

const STABILITY_FLAGS = new Set(['stable', 'rc', 'beta', 'alpha', 'dev']);
const OPERATOR_TOKENS = new Set(['<>', '!=', '>=', '<=', '>', '<', '==', '=', '~', '^']);
const wildcardAllPattern = /^(v?)[xX*]((?:\.[xX*])*)$/;
const xRangePattern = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.[xX*])+$/;
/** A version's numeric parts and what follows them (checked apart). */
const numericPartsPattern = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:\.(\d+))?([^\d.].*)?$/;
/** Composer's modifier after the numbers: `-beta2`, `RC1`, `-dev`, `.patch1`; one reading per string. */
const modifierPattern = /^[._-]?(?:(stable|beta|b|RC|alpha|a|patch|pl|p)(?:[.-]?\d)*)?([.-]?dev)?$/i;
const operatorPattern = /^(<>|!=|>=|<=|==|>|<|=)?/;

type VersionParts = { numbers: string[]; stability?: string; isDev: boolean };

function fail(constraint: string, reason?: string): never {
  throw new InvalidConstraintError(`Could not parse version constraint ${constraint}${reason ? `: ${reason}` : ''}`);
}

/** `1.2.3-beta1` → numbers [1, 2, 3], stability beta; undefined when it is not a plain version. */
function readVersionParts(text: string): VersionParts | undefined {
  const match = numericPartsPattern.exec(text);
  if (!match) return undefined;
  const numbers = [match[1], match[2], match[3], match[4]].filter((part): part is string => part !== undefined);
  const rest = match[5] ?? '';
  if (rest === '') return { numbers, isDev: false };
  const modifier = modifierPattern.exec(rest);
  if (!modifier || !(modifier[1] || modifier[2])) return undefined;
  return { numbers, stability: modifier[1], isDev: modifier[2] !== undefined };
}

/** Composer's manipulateVersionString: parts after `position` become 0, the part at `position` moves by one. */
function bump(numbers: string[], position: number): string {
  const parts = [0, 1, 2, 3].map((index) => Number(numbers[index] ?? 0));
  parts[position - 1]! += 1;
  for (let index = position; index < 4; index++) parts[index] = 0;
  return parts.join('.');
}

function normalizeOrFail(constraint: string, version: string): string {
  try {
    return normalizeVersion(version);
  } catch (error) {
    if (error instanceof InvalidVersionError) fail(constraint, error.message);
    throw error;
  }
}

function parseRange(constraint: string, from: string, to: string): SimpleConstraint[] {
  const low = readVersionParts(from);
  const high = readVersionParts(to);
  if (!low || !high) fail(constraint);
  const lowVersion = normalizeOrFail(constraint, from) + (low.stability || low.isDev ? '' : '-dev');
  const isExactHigh = (high.numbers.length >= 3 && high.numbers[1] !== undefined) || high.stability || high.isDev;
  if (isExactHigh) {
    return [
      { operator: '>=', version: lowVersion },
      { operator: '<=', version: normalizeOrFail(constraint, to) },
    ];
  }
  normalizeOrFail(constraint, to);
  return [
    { operator: '>=', version: lowVersion },
    { operator: '<', version: `${bump(high.numbers, high.numbers.length < 2 ? 1 : 2)}-dev` },
  ];
}

function parseSingle(input: string): SimpleConstraint[] {
  let constraint = input;
  let stabilityFlag: string | undefined;
  const at = constraint.lastIndexOf('@');
  if (at !== -1) {
    const flag = constraint.slice(at + 1).toLowerCase();
    if (!STABILITY_FLAGS.has(flag)) fail(input);
    constraint = constraint.slice(0, at) || '*';
    if (flag !== 'stable') stabilityFlag = flag === 'rc' ? 'RC' : flag;
  }
  if (constraint.includes('@') || constraint.includes('#')) fail(input);

  const wildcard = wildcardAllPattern.exec(constraint);
  if (wildcard) return wildcard[1] || wildcard[2] ? [{ operator: '>=', version: '0.0.0.0-dev' }] : [];

  if (constraint.startsWith('~') || constraint.startsWith('^')) {
    const isTilde = constraint.startsWith('~');
    const body = constraint.slice(1);
    if (body.startsWith('>')) fail(input, 'Invalid operator "~>", you probably meant to use the "~" operator');
    const parts = readVersionParts(body);
    if (!parts) fail(input);
    const low = normalizeOrFail(input, body + (parts.stability || parts.isDev ? '' : '-dev'));
    const [major, minor, patch] = parts.numbers;
    let position: number;
    if (isTilde) {
      position = Math.max(1, parts.numbers.length - 1);
    } else if (major !== '0' || minor === undefined) {
      position = 1;
    } else if (minor !== '0' || patch === undefined) {
      position = 2;
    } else {
      position = 3;
    }
    return [
      { operator: '>=', version: low },
      { operator: '<', version: `${bump(parts.numbers, position)}-dev` },
    ];
  }

  const xRange = xRangePattern.exec(constraint);
  if (xRange) {
    const numbers = [xRange[1], xRange[2], xRange[3]].filter((part): part is string => part !== undefined);
    const lowParts = [0, 1, 2, 3].map((index) => Number(numbers[index] ?? 0)).join('.');
    const high = `${bump(numbers, numbers.length)}-dev`;
    if (lowParts === '0.0.0.0') return [{ operator: '<', version: high }];
    return [
      { operator: '>=', version: `${lowParts}-dev` },
      { operator: '<', version: high },
    ];
  }

  const operatorMatch = operatorPattern.exec(constraint)!;
  const written = operatorMatch[1] ?? '=';
  const raw = constraint.slice(operatorMatch[0].length).trim();
  if (raw === '') fail(input);
  let version = normalizeOrFail(input, raw);
  const operator: Operator = written === '=' ? '==' : written === '<>' ? '!=' : (written as Operator);
  if (operator !== '==' && stabilityFlag && parseStability(version) === 'stable') {
    version += `-${stabilityFlag}`;
  } else if (
    (operator === '<' || operator === '>=') &&
    !endsWithModifier(raw.toLowerCase()) &&
    !raw.startsWith('dev-')
  ) {
    version += '-dev';
  }
  return [{ operator, version }];
}

/** Composer's `/-{modifier}$/` on the written version: a `-` from which the rest is a modifier (or nothing). */
function endsWithModifier(text: string): boolean {
  for (let index = text.indexOf('-'); index !== -1; index = text.indexOf('-', index + 1)) {
    const rest = text.slice(index + 1);
    if (rest === '' || modifierPattern.test(rest)) return true;
  }
  return false;
}

/** Words of one alternative: split on commas and spaces, an operator standing alone joined to its version. */
function conjunctionTerms(alternative: string, whole: string): string[] {
  const words: string[] = [];
  let current = '';
  // A comma stands between two terms: never first, last, or twice in a row.
  let isCommaOpen = false;
  for (const character of alternative) {
    if (character === ',' || character === ' ' || character === '\t') {
      if (current) words.push(current);
      else if (character === ',' && (isCommaOpen || words.length === 0)) fail(whole);
      if (character === ',') isCommaOpen = true;
      current = '';
    } else {
      current += character;
      isCommaOpen = false;
    }
  }
  if (current) words.push(current);
  else if (isCommaOpen) fail(whole);
  const terms: string[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index]!;
    if (OPERATOR_TOKENS.has(word)) {
      const next = words[index + 1];
      if (next === undefined || OPERATOR_TOKENS.has(next) || next === '-') fail(whole);
      terms.push(word + next);
      index++;
    } else if (word === '-') {
      const previous = terms.pop();
      const next = words[index + 1];
      if (previous === undefined || next === undefined || next === '-') fail(whole);
      terms.push(`${previous} - ${next}`);
      index++;
    } else {
      terms.push(word);
    }
  }
  return terms;
}

/** Parses a Composer constraint; throws InvalidConstraintError with Composer's wording when it is not one. */
export function parseConstraints(text: string): VersionConstraint {
  const trimmed = text.trim();
  if (trimmed === '') fail(text);
  if (trimmed.length > CONSTRAINT_MAX_LENGTH) {
    throw new InvalidConstraintError(`A version constraint has at most ${CONSTRAINT_MAX_LENGTH} characters`);
  }
  if (/[\r\n]/.test(trimmed)) fail(trimmed);
  const alternatives = trimmed.replaceAll('||', '|').split('|');
  return {
    alternatives: alternatives.map((alternative) => {
      const terms = conjunctionTerms(alternative.trim(), trimmed);
      if (terms.length === 0) fail(trimmed);
      return terms.flatMap((term) => {
        const hyphen = term.indexOf(' - ');
        return hyphen === -1 ? parseSingle(term) : parseRange(term, term.slice(0, hyphen), term.slice(hyphen + 3));
      });
    }),
  };
}

/** Whether a normalized version (`1.2.0.0`, `dev-main`) satisfies the constraint, as Composer decides. */
export function matchesConstraint(constraint: VersionConstraint, normalizedVersion: string): boolean {
  return constraint.alternatives.some((conjunction) =>
    conjunction.every((simple) => composerCompare(normalizedVersion, simple.version, simple.operator)),
  );
}

/** Constraint::versionCompare: a dev branch only equals itself, and is never before or after anything. */
function composerCompare(left: string, right: string, operator: Operator): boolean {
  const isLeftBranch = left.startsWith('dev-');
  const isRightBranch = right.startsWith('dev-');
  if (operator === '!=' && (isLeftBranch || isRightBranch)) return left !== right;
  if (isLeftBranch && isRightBranch) return operator === '==' && left === right;
  if (isLeftBranch || isRightBranch) return false;
  const order = phpVersionCompare(left, right);
  switch (operator) {
    case '==':
      return order === 0;
    case '!=':
      return order !== 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
  }
}

const isDigit = (character: string | undefined) => character !== undefined && character >= '0' && character <= '9';
const isAlphanumeric = (character: string) => isDigit(character) || /^[A-Za-z]$/.test(character);

/** PHP's php_canonicalize_version: `1.0rc1` → `1.0.rc.1`, separators `-_+` become dots. */
function canonicalize(version: string): string {
  if (version === '') return '';
  let result = version[0]!;
  let previous = version[0]!;
  for (const character of version.slice(1)) {
    const last = result[result.length - 1];
    if (character === '-' || character === '_' || character === '+') {
      if (last !== '.') result += '.';
    } else if (
      (previous !== '.' && !isDigit(previous) && isDigit(character)) ||
      (isDigit(previous) && character !== '.' && !isDigit(character))
    ) {
      if (last !== '.') result += '.';
      result += character;
    } else if (!isAlphanumeric(character)) {
      if (last !== '.') result += '.';
    } else {
      result += character;
    }
    previous = character;
  }
  return result;
}

const SPECIAL_FORMS: [string, number][] = [
  ['dev', 0],
  ['alpha', 1],
  ['a', 1],
  ['beta', 2],
  ['b', 2],
  ['RC', 3],
  ['rc', 3],
  ['#', 4],
  ['pl', 5],
  ['p', 5],
];

function specialFormOrder(form: string): number {
  for (const [name, order] of SPECIAL_FORMS) if (form.startsWith(name)) return order;
  return -6;
}

function compareSpecial(left: string, right: string): number {
  return Math.sign(specialFormOrder(left) - specialFormOrder(right));
}

/** PHP's version_compare($left, $right): -1, 0 or 1. */
export function phpVersionCompare(left: string, right: string): number {
  if (left === '' || right === '') return left === right ? 0 : left === '' ? -1 : 1;
  const leftParts = canonicalize(left).split('.');
  const rightParts = canonicalize(right).split('.');
  const length = Math.min(leftParts.length, rightParts.length);
  for (let index = 0; index < length; index++) {
    const a = leftParts[index]!;
    const b = rightParts[index]!;
    let order: number;
    if (isDigit(a[0]) && isDigit(b[0])) order = Math.sign(Number(a) - Number(b));
    else if (!isDigit(a[0]) && !isDigit(b[0])) order = compareSpecial(a, b);
    else order = isDigit(a[0]) ? compareSpecial('#N#', b) : compareSpecial(a, '#N#');
    if (order !== 0) return order;
  }
  if (leftParts.length > length) {
    const next = leftParts[length]!;
    return isDigit(next[0]) ? 1 : phpVersionCompare(leftParts.slice(length).join('.'), '#N#');
  }
  if (rightParts.length > length) {
    const next = rightParts[length]!;
    return isDigit(next[0]) ? -1 : phpVersionCompare('#N#', rightParts.slice(length).join('.'));
  }
  return 0;
}
