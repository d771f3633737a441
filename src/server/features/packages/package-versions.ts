import type { SkippedReference } from '../../../contract/packages.js';
import type { GitReference } from '../../adapters/git/git-repository.js';
import { AppError } from '../../http/errors.js';
import {
  InvalidVersionError,
  normalizeVersion,
  versionFromBranch,
  versionFromTag,
} from '../../lib/composer-versions/version-parser.js';

// Which versions a repository publishes, decided the way Composer's own VcsRepository decides them
// (composer/composer src/Composer/Repository/VcsRepository.php, `initialize`), so that what we serve is what
// `composer` would read from the same git repository. Every reference Composer would skip is reported with
// the reason, for the seller.

export type Manifest = Record<string, unknown>;

export type ComputedVersion = {
  /** As Composer shows it: `v1.0.0`, `1.x-dev`, `dev-main`. */
  version: string;
  normalizedVersion: string;
  kind: 'tag' | 'branch';
  /** The tag or branch name. */
  reference: string;
  commit: string;
  /** The commit's author date: shown to people, never used to decide access (anyone can set it). */
  releasedAt: Date;
  /** An annotated tag's tagger date; undefined for a lightweight tag and a branch. */
  taggedAt: Date | undefined;
  /** The reference's composer.json, with `default-branch` set on the default branch only (as Composer does). */
  composerJson: Manifest;
};

/**
 * When a version is published, seen by a sync at `now` at a commit no row of it had before: now, or the annotated
 * tag's own date when that is later. An update window compares with this, never with a commit's dates, which
 * cherry-pick, rebase and amend keep and anyone can set; a tagger date can only push a publication later.
 */
export function publicationTime(version: Pick<ComputedVersion, 'taggedAt'>, now: Date): Date {
  return version.taggedAt && version.taggedAt.getTime() > now.getTime() ? version.taggedAt : now;
}

export type VersionPlan = { versions: ComputedVersion[]; skipped: SkippedReference[] };

type ParsedManifest = { manifest: Manifest } | { problem: string };

function parseManifest(text: string | undefined): ParsedManifest {
  if (text === undefined) return { problem: 'no composer.json' };
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch (error) {
    return { problem: `composer.json is not valid JSON (${(error as Error).message})` };
  }
  if (manifest === null || typeof manifest !== 'object' || Array.isArray(manifest)) {
    return { problem: 'composer.json is not a JSON object' };
  }
  return { manifest: manifest as Manifest };
}

const DEV_SUFFIX = /[.-]?dev$/i;
const DEV_MARKER = /(^dev-|[.-]?dev$)/i;

/** Git sorts references by name byte-wise; so does Composer's git driver, so conflicts resolve the same way. */
function byName(a: GitReference, b: GitReference): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

/**
 * The versions of a repository from its references and each commit's composer.json text.
 * `defaultBranch` is the branch the code host names as default (it gets `default-branch: true`).
 */
export function planVersions(
  references: GitReference[],
  composerJsonByCommit: Map<string, string | undefined>,
  defaultBranch: string | null,
): VersionPlan {
  const versions: ComputedVersion[] = [];
  const skipped: SkippedReference[] = [];
  const byNormalized = new Map<string, string>();
  const byVersion = new Map<string, string>();
  const skip = (reference: string, reason: string) => skipped.push({ reference, reason });

  const tags = references.filter((reference) => reference.kind === 'tag').sort(byName);
  for (const tag of tags) {
    const parsedTag = versionFromTag(tag.name);
    if (!parsedTag) {
      skip(tag.name, 'invalid tag name: not a version Composer understands');
      continue;
    }
    const parsed = parseManifest(composerJsonByCommit.get(tag.commit));
    if ('problem' in parsed) {
      skip(tag.name, parsed.problem);
      continue;
    }
    const manifest = { ...parsed.manifest };
    let version: string;
    let normalizedVersion: string;
    if (manifest.version !== undefined) {
      // A manually versioned package: composer.json's version must agree with the tag.
      if (typeof manifest.version !== 'string') {
        skip(tag.name, 'the version in composer.json is not a string');
        continue;
      }
      try {
        normalizedVersion = normalizeVersion(manifest.version);
      } catch (error) {
        if (!(error instanceof InvalidVersionError)) throw error;
        skip(tag.name, `the version in composer.json is invalid (${JSON.stringify(manifest.version)})`);
        continue;
      }
      version = manifest.version;
    } else {
      version = parsedTag.version;
      normalizedVersion = parsedTag.normalizedVersion;
    }
    // Tags never publish dev versions.
    version = version.replace(DEV_SUFFIX, '');
    normalizedVersion = normalizedVersion.replace(DEV_MARKER, '');
    if (normalizedVersion !== parsedTag.normalizedVersion) {
      skip(
        tag.name,
        DEV_MARKER.test(parsedTag.normalizedVersion)
          ? 'invalid tag name: tags can not use dev prefixes or suffixes'
          : `the tag (${parsedTag.normalizedVersion}) does not match the version (${normalizedVersion}) in composer.json`,
      );
      continue;
    }
    const conflict = byNormalized.get(normalizedVersion) ?? byVersion.get(version);
    if (conflict) {
      skip(tag.name, `it conflicts with tag ${conflict}: both resolve to ${normalizedVersion}`);
      continue;
    }
    byNormalized.set(normalizedVersion, tag.name);
    byVersion.set(version, tag.name);
    delete manifest['default-branch'];
    versions.push({
      version,
      normalizedVersion,
      kind: 'tag',
      reference: tag.name,
      commit: tag.commit,
      releasedAt: tag.authoredAt,
      taggedAt: tag.taggedAt,
      composerJson: manifest,
    });
  }

  const branches = references.filter((reference) => reference.kind === 'branch').sort(byName);
  const branchNames = new Set(branches.map((branch) => branch.name));
  for (const branch of branches) {
    if (branch.name === 'trunk' && branchNames.has('master')) {
      skip(branch.name, 'master and trunk both resolve to 9999999-dev; master is used');
      continue;
    }
    // Composer also rejects branch names whose version would break constraint parsing.
    if (/[\s,|]/.test(branch.name)) {
      skip(branch.name, 'invalid branch name for a version');
      continue;
    }
    const parsed = parseManifest(composerJsonByCommit.get(branch.commit));
    if ('problem' in parsed) {
      skip(branch.name, parsed.problem);
      continue;
    }
    const fromBranch = versionFromBranch(branch.name);
    // Composer writes `#` as `+` in dev branch versions (`#` starts a commit reference in constraints).
    const version = fromBranch.version.startsWith('dev-')
      ? `dev-${branch.name.replaceAll('#', '+')}`
      : fromBranch.version;
    const normalizedVersion = fromBranch.normalizedVersion.replaceAll('#', '+');
    const conflict = byVersion.get(version);
    if (conflict) {
      skip(branch.name, `it conflicts with ${conflict}: both publish ${version}`);
      continue;
    }
    byVersion.set(version, branch.name);
    const manifest = { ...parsed.manifest };
    if (branch.name === defaultBranch) manifest['default-branch'] = true;
    else delete manifest['default-branch'];
    versions.push({
      version,
      normalizedVersion,
      kind: 'branch',
      reference: branch.name,
      commit: branch.commit,
      releasedAt: branch.authoredAt,
      taggedAt: undefined,
      composerJson: manifest,
    });
  }

  return { versions, skipped };
}

/** The composer.json `name`, lower-cased as Composer compares names; undefined when it has none. */
export function manifestName(text: string): { name?: string } | { problem: string } {
  const parsed = parseManifest(text);
  if ('problem' in parsed) return parsed;
  const name = parsed.manifest.name;
  if (name === undefined) return {};
  if (typeof name !== 'string') return { problem: 'the name in composer.json is not a string' };
  return { name: name.trim().toLowerCase() };
}

/**
 * The name a default branch's composer.json declares (none: undefined), or the BAD_REQUEST a seller reads when the
 * file is missing or unusable; `missing` and `unusable` say it in the words of the door that asked.
 */
export function requireManifestName(
  text: string | undefined,
  wording: { missing: string; unusable: (problem: string) => string },
): string | undefined {
  if (text === undefined) {
    throw new AppError('BAD_REQUEST', wording.missing, {
      title: 'No composer.json',
      suggestion: 'Only repositories with a composer.json at the root of their default branch can become packages.',
    });
  }
  const named = manifestName(text);
  if ('problem' in named) {
    throw new AppError('BAD_REQUEST', wording.unusable(named.problem), {
      title: 'Invalid composer.json',
      suggestion: 'Fix composer.json in the repository, then try again.',
    });
  }
  return named.name;
}
