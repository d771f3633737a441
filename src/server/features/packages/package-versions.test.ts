import { describe, expect, it } from 'vitest';
import type { GitReference } from '../../adapters/git/git-repository.js';
import { manifestName, planVersions, publicationTime, requireManifestName } from './package-versions.js';

let counter = 0;
function reference(kind: 'tag' | 'branch', name: string, commit = `c${++counter}`.padEnd(40, '0')): GitReference {
  const time = new Date(Date.UTC(2024, 0, 1 + counter));
  return {
    kind,
    name,
    ref: `refs/${kind === 'tag' ? 'tags' : 'heads'}/${name}`,
    commit,
    committedAt: time,
    authoredAt: time,
  };
}

const manifest = (extra: Record<string, unknown> = {}) => JSON.stringify({ name: 'acme/widget', ...extra });

function plan(entries: Array<[GitReference, string | undefined]>, defaultBranch: string | null = 'main') {
  const files = new Map(entries.map(([ref, text]) => [ref.commit, text]));
  return planVersions(
    entries.map(([ref]) => ref),
    files,
    defaultBranch,
  );
}

describe('publicationTime', () => {
  const now = new Date('2026-03-01T12:00:00Z');

  it('is the moment the sync sees the version, whatever the commit says', () => {
    expect(publicationTime({ taggedAt: undefined }, now)).toEqual(now);
  });

  it('is the tagger date when the tag says it was made later than it was seen', () => {
    const later = new Date('2026-03-15T09:30:00Z');
    expect(publicationTime({ taggedAt: later }, now)).toEqual(later);
  });

  it('is never earlier than the moment it was seen, whatever date the tagger wrote', () => {
    expect(publicationTime({ taggedAt: new Date('2024-01-02T00:00:00Z') }, now)).toEqual(now);
  });
});

describe('planVersions', () => {
  it('publishes valid tags and branches and reports an invalid tag', () => {
    const result = plan([
      [reference('tag', 'v1.0.0'), manifest()],
      [reference('tag', 'v1.1.0'), manifest()],
      [reference('tag', 'not-a-version'), manifest()],
      [reference('branch', 'main'), manifest({ 'default-branch': false })],
    ]);
    expect(result.versions.map((version) => [version.version, version.normalizedVersion, version.kind])).toEqual([
      ['v1.0.0', '1.0.0.0', 'tag'],
      ['v1.1.0', '1.1.0.0', 'tag'],
      ['dev-main', 'dev-main', 'branch'],
    ]);
    expect(result.skipped).toEqual([
      { reference: 'not-a-version', reason: 'invalid tag name: not a version Composer understands' },
    ]);
    expect(result.versions[2]!.composerJson['default-branch']).toBe(true);
  });

  it('drops the release- prefix and keeps the tag date as the release time', () => {
    const tag = reference('tag', 'release-2.0.0');
    const [version] = plan([[tag, manifest()]]).versions;
    expect(version).toMatchObject({ version: '2.0.0', normalizedVersion: '2.0.0.0', releasedAt: tag.authoredAt });
  });

  it("carries an annotated tag's tagger date, and none for a lightweight tag or a branch", () => {
    const annotated = { ...reference('tag', 'v1.0.0'), taggedAt: new Date('2026-03-15T00:00:00Z') };
    const result = plan([
      [annotated, manifest()],
      [reference('tag', 'v1.1.0'), manifest()],
      [reference('branch', 'main'), manifest()],
    ]);
    expect(result.versions.map((version) => [version.version, version.taggedAt])).toEqual([
      ['v1.0.0', new Date('2026-03-15T00:00:00Z')],
      ['v1.1.0', undefined],
      ['dev-main', undefined],
    ]);
  });

  it('skips a tag whose composer.json version disagrees, and uses an agreeing one', () => {
    const result = plan([
      [reference('tag', 'v1.0.0'), manifest({ version: '1.0.1' })],
      [reference('tag', 'v1.2.0'), manifest({ version: '1.2.0' })],
      [reference('tag', 'v1.3.0'), manifest({ version: 'banana' })],
    ]);
    expect(result.versions.map((version) => version.version)).toEqual(['1.2.0']);
    expect(result.skipped).toEqual([
      {
        reference: 'v1.0.0',
        reason: 'the tag (1.0.0.0) does not match the version (1.0.1.0) in composer.json',
      },
      { reference: 'v1.3.0', reason: 'the version in composer.json is invalid ("banana")' },
    ]);
  });

  it('skips references without composer.json or with invalid JSON', () => {
    const result = plan([
      [reference('tag', 'v1.0.0'), undefined],
      [reference('tag', 'v2.0.0'), '{"name": '],
      [reference('tag', 'v3.0.0'), '[]'],
      [reference('branch', 'docs'), undefined],
    ]);
    expect(result.versions).toEqual([]);
    expect(result.skipped.map((skip) => [skip.reference, skip.reason.split(' (')[0]])).toEqual([
      ['v1.0.0', 'no composer.json'],
      ['v2.0.0', 'composer.json is not valid JSON'],
      ['v3.0.0', 'composer.json is not a JSON object'],
      ['docs', 'no composer.json'],
    ]);
  });

  it('never publishes a dev version from a tag', () => {
    const result = plan([
      [reference('tag', '1.0.0-dev'), manifest()],
      [reference('tag', 'dev-foo'), manifest()],
    ]);
    expect(result.versions).toEqual([]);
    expect(result.skipped.map((skip) => skip.reference)).toEqual(['1.0.0-dev', 'dev-foo']);
    expect(result.skipped[0]!.reason).toBe('invalid tag name: tags can not use dev prefixes or suffixes');
  });

  it('keeps the first of two tags that resolve to the same version, in git’s name order', () => {
    const result = plan([
      [reference('tag', 'v1.0.0'), manifest()],
      [reference('tag', '1.0.0'), manifest()],
    ]);
    expect(result.versions.map((version) => version.version)).toEqual(['1.0.0']);
    expect(result.skipped).toEqual([
      { reference: 'v1.0.0', reason: 'it conflicts with tag 1.0.0: both resolve to 1.0.0.0' },
    ]);
  });

  it('names branches as Composer does', () => {
    const result = plan(
      [
        [reference('branch', '1.x'), manifest()],
        [reference('branch', 'v2.x'), manifest()],
        [reference('branch', 'feature/login'), manifest()],
        [reference('branch', 'master'), manifest()],
        [reference('branch', 'trunk'), manifest()],
        [reference('branch', 'fix#12'), manifest()],
      ],
      'master',
    );
    expect(result.versions.map((version) => [version.version, version.normalizedVersion])).toEqual([
      ['1.x-dev', '1.9999999.9999999.9999999-dev'],
      ['dev-feature/login', 'dev-feature/login'],
      ['dev-fix+12', 'dev-fix+12'],
      ['dev-master', 'dev-master'],
      ['v2.x-dev', '2.9999999.9999999.9999999-dev'],
    ]);
    expect(result.skipped.map((skip) => skip.reference)).toEqual(['trunk']);
    const flagged = result.versions.filter((version) => version.composerJson['default-branch'] === true);
    expect(flagged.map((version) => version.version)).toEqual(['dev-master']);
  });

  it('removes a default-branch flag a tag’s composer.json carries', () => {
    const [version] = plan([[reference('tag', 'v1.0.0'), manifest({ 'default-branch': true })]]).versions;
    expect(version!.composerJson).not.toHaveProperty('default-branch');
  });
});

describe('manifestName', () => {
  it('reads the name lower-cased, or reports an unusable manifest', () => {
    expect(manifestName('{"name": "Acme/Widget"}')).toEqual({ name: 'acme/widget' });
    expect(manifestName('{"description": "no name"}')).toEqual({});
    expect(manifestName('{"name": 42}')).toEqual({ problem: 'the name in composer.json is not a string' });
    expect(manifestName('nope')).toHaveProperty('problem');
  });
});

describe('requireManifestName', () => {
  const wording = {
    missing: 'acme/notes has no composer.json on main.',
    unusable: (problem: string) => `The composer.json of acme/notes on main is unusable: ${problem}.`,
  };

  it('gives the declared name, lower-cased, or none', () => {
    expect(requireManifestName('{"name": "Acme/Notes"}', wording)).toBe('acme/notes');
    expect(requireManifestName('{"description": "no name"}', wording)).toBeUndefined();
  });

  it("refuses a missing or unusable composer.json in the asking door's words", () => {
    expect(() => requireManifestName(undefined, wording)).toThrow(
      expect.objectContaining({
        code: 'BAD_REQUEST',
        title: 'No composer.json',
        message: 'acme/notes has no composer.json on main.',
      }),
    );
    expect(() => requireManifestName('{"name": 42}', wording)).toThrow(
      expect.objectContaining({
        title: 'Invalid composer.json',
        message: 'The composer.json of acme/notes on main is unusable: the name in composer.json is not a string.',
        suggestion: 'Fix composer.json in the repository, then try again.',
      }),
    );
  });
});
