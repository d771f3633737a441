import { describe, expect, it } from 'vitest';
import type { MetadataVersionRow, PackageLifecycleFacts } from './composer.repository.js';
import {
  distFileName,
  distUrl,
  parseMetadataFile,
  renderMetadata,
  renderPackagesJson,
  shownVersions,
  yankedVersionMessage,
} from './composer-render.js';

const BASE_URL = 'http://acme.composer.localhost:5000';
const NO_LIFECYCLE: PackageLifecycleFacts = { abandoned: undefined, advisories: [], yanked: [] };

function versionRow(version: string, publishedAt: number, composerJson: Record<string, unknown> = {}) {
  return {
    version,
    normalizedVersion: `${version}.0`,
    commit: `commit-of-${version}`,
    publishedAt,
    time: new Date(publishedAt).toISOString(),
    composerJson,
    distSha1: null,
  } satisfies MetadataVersionRow;
}

describe('packages.json', () => {
  it('lists the installable names and points Composer at the p2 files, the notify URL and the advisories', () => {
    expect(renderPackagesJson({ available: ['acme/tools'], warnings: [] })).toEqual({
      packages: [],
      'metadata-url': '/p2/%package%.json',
      'available-packages': ['acme/tools'],
      'notify-batch': '/api/composer/notify-batch',
      'security-advisories': { metadata: true },
    });
  });

  it('carries each notice as a warning on every version', () => {
    const rendered = renderPackagesJson({ available: [], warnings: ['Your license ends in 3 days.'] });
    expect(rendered.warnings).toEqual([{ message: 'Your license ends in 3 days.', versions: '*' }]);
  });
});

describe('p2 file names', () => {
  it('reads tags from vendor/package.json and branches from vendor/package~dev.json, in lower case', () => {
    expect(parseMetadataFile('Acme', 'Tools.json')).toEqual({ packageName: 'acme/tools', kind: 'tag' });
    expect(parseMetadataFile('acme', 'tools~dev.json')).toEqual({ packageName: 'acme/tools', kind: 'branch' });
  });

  it('knows no other file and no name Composer would refuse', () => {
    expect(parseMetadataFile('acme', 'tools.zip')).toBeUndefined();
    expect(parseMetadataFile('acme', '.json')).toBeUndefined();
    expect(parseMetadataFile('ac me', 'tools.json')).toBeUndefined();
  });
});

describe('dist URLs and file names', () => {
  it('puts the download on the repository host, with the version escaped', () => {
    expect(distUrl(BASE_URL, 'acme/tools', '1.0.0')).toBe(`${BASE_URL}/api/composer/download/acme/tools/1.0.0`);
    expect(distUrl(BASE_URL, 'acme/tools', 'dev-feature/x')).toBe(
      `${BASE_URL}/api/composer/download/acme/tools/dev-feature%2Fx`,
    );
  });

  it('saves a zip under the package and version, without characters a file system dislikes', () => {
    expect(distFileName('acme/tools', '1.0.0')).toBe('acme-tools-1.0.0.zip');
    expect(distFileName('acme/tools', 'dev-feature/x y')).toBe('acme-tools-dev-feature-x-y.zip');
  });
});

describe('p2 files', () => {
  it('serves dist only, never the private source, and leaves out root-only manifest keys', () => {
    const body = JSON.parse(
      renderMetadata({
        baseUrl: BASE_URL,
        packageName: 'acme/tools',
        kind: 'tag',
        versions: [
          versionRow('1.0.0', Date.UTC(2026, 0, 1), {
            name: 'acme/tools',
            require: { php: '>=8.1' },
            repositories: [{ type: 'vcs', url: 'git@internal:acme/tools.git' }],
            config: { secret: 'x' },
            source: { type: 'git', url: 'git@internal:acme/tools.git' },
          }),
        ],
        lifecycle: NO_LIFECYCLE,
        sourceName: 'acme',
      }),
    );
    expect(body).toEqual({
      packages: {
        'acme/tools': [
          {
            name: 'acme/tools',
            version: '1.0.0',
            version_normalized: '1.0.0.0',
            require: { php: '>=8.1' },
            dist: {
              type: 'zip',
              url: `${BASE_URL}/api/composer/download/acme/tools/1.0.0`,
              reference: 'commit-of-1.0.0',
              shasum: '',
            },
            time: '2026-01-01T00:00:00.000Z',
          },
        ],
      },
      'security-advisories': [],
    });
  });

  it('marks every version abandoned and gives the tag file its advisories and yank notices', () => {
    const lifecycle: PackageLifecycleFacts = {
      abandoned: 'acme/new-tools',
      advisories: [
        {
          advisoryKey: 'PG-1',
          title: 'Token leak',
          affectedVersions: '<1.0.1',
          severity: 'high',
          cve: null,
          link: null,
          reportedAt: '2026-11-20 00:00:00',
        },
      ],
      yanked: [{ version: '0.9.0', reason: 'Broken autoloader' }],
    };
    const input = {
      baseUrl: BASE_URL,
      packageName: 'acme/tools',
      versions: [versionRow('1.0.0', 0)],
      lifecycle,
      sourceName: 'acme',
    };
    const tags = JSON.parse(renderMetadata({ ...input, kind: 'tag' }));
    expect(tags.packages['acme/tools'][0].abandoned).toBe('acme/new-tools');
    expect(tags['security-advisories']).toEqual([
      {
        advisoryId: 'PG-1',
        packageName: 'acme/tools',
        remoteId: 'PG-1',
        title: 'Token leak',
        link: null,
        cve: null,
        affectedVersions: '<1.0.1',
        source: 'acme',
        sources: [{ name: 'acme', remoteId: 'PG-1' }],
        reportedAt: '2026-11-20 00:00:00',
        composerRepository: BASE_URL,
        severity: 'high',
      },
    ]);
    expect(tags.warnings).toEqual([
      {
        message:
          'acme/tools 0.9.0 was yanked by the seller: Broken autoloader. Composer will not install it again; a composer.lock that names it still installs it until you run composer update acme/tools.',
        versions: '*',
      },
    ]);
    const branches = JSON.parse(renderMetadata({ ...input, kind: 'branch' }));
    expect(branches.packages['acme/tools'][0].abandoned).toBe('acme/new-tools');
    expect(branches['security-advisories']).toBeUndefined();
    expect(branches.warnings).toBeUndefined();
  });

  it('explains at most five yanked versions', () => {
    const yanked = Array.from({ length: 7 }, (_, index) => ({ version: `0.${index}.0`, reason: 'Broken!' }));
    const body = JSON.parse(
      renderMetadata({
        baseUrl: BASE_URL,
        packageName: 'acme/tools',
        kind: 'tag',
        versions: [],
        lifecycle: { ...NO_LIFECYCLE, yanked },
        sourceName: 'acme',
      }),
    );
    expect(body.warnings).toHaveLength(5);
    expect(body.warnings[0].message).toContain('acme/tools 0.0.0 was yanked by the seller: Broken! Composer');
  });

  it('puts the license notices first, before the yanked versions, in the tag file only', () => {
    const input = {
      baseUrl: BASE_URL,
      packageName: 'acme/tools',
      versions: [],
      lifecycle: { ...NO_LIFECYCLE, yanked: [{ version: '0.1.0', reason: 'Broken!' }] },
      sourceName: 'acme',
      notices: ['Your license for acme/tools ends in 3 days (2026-03-04).'],
    };
    const tags = JSON.parse(renderMetadata({ ...input, kind: 'tag' }));
    expect(tags.warnings.map((warning: { message: string }) => warning.message)).toEqual([
      'Your license for acme/tools ends in 3 days (2026-03-04).',
      expect.stringContaining('acme/tools 0.1.0 was yanked'),
    ]);
    // `versions` is matched against Composer's own version: `*` reaches every client.
    expect(tags.warnings[0].versions).toBe('*');
    expect(JSON.parse(renderMetadata({ ...input, kind: 'branch' })).warnings).toBeUndefined();
  });

  it('ends a yank reason with a full stop unless it has its own', () => {
    expect(yankedVersionMessage('acme/tools', { version: '1.0.0', reason: 'Oops' })).toContain('seller: Oops. ');
    expect(yankedVersionMessage('acme/tools', { version: '1.0.0', reason: 'Why?' })).toContain('seller: Why? ');
  });
});

describe('the versions a frozen grant shows', () => {
  const versions = [versionRow('2.0.0', 2000), versionRow('1.0.0', 1000)];

  it('shows every version without a freeze', () => {
    expect(shownVersions(versions, 'tag', undefined)).toBe(versions);
    expect(shownVersions(versions, 'branch', undefined)).toBe(versions);
  });

  it('keeps the tags published before the freeze and no branch', () => {
    expect(shownVersions(versions, 'tag', 2000).map((row) => row.version)).toEqual(['1.0.0']);
    expect(shownVersions(versions, 'branch', 5000)).toEqual([]);
  });
});
