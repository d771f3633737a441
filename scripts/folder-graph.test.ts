import { describe, expect, it } from 'vitest';
import { type CruisedModule, checkFolderGraph, describeFolderGraph, findLoops, folderOf } from './folder-graph.js';

const layers = { channels: ['api-v1', 'portal'], domains: ['licenses', 'sales', 'billing'] };

/** A module of the fixture graph: its path and what it imports (`type:` marks a type-only import). */
function module(source: string, ...imports: string[]): CruisedModule {
  return {
    source,
    dependencies: imports.map((target) =>
      target.startsWith('type:')
        ? { resolved: target.slice('type:'.length), dependencyTypes: ['local', 'type-only', 'import'] }
        : { resolved: target, dependencyTypes: ['local', 'import'] },
    ),
  };
}

const f = (path: string) => `src/server/${path}`;

describe('findLoops', () => {
  it('finds every loop of a graph with its folders, and none in a DAG', () => {
    expect(
      findLoops([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
        ['d', 'e'],
        ['e', 'd'],
        ['f', 'f'],
      ]),
    ).toEqual([
      ['a', 'b', 'c'],
      ['d', 'e'],
    ]);
    expect(
      findLoops([
        ['a', 'b'],
        ['a', 'c'],
        ['b', 'd'],
        ['c', 'd'],
      ]),
    ).toEqual([]);
  });

  it('follows a chain far longer than the call stack would allow a recursion', () => {
    const chain = Array.from({ length: 50_000 }, (_, i) => [`n${i}`, `n${i + 1}`] as const);
    expect(findLoops([...chain, ['n50000', 'n0']])[0]).toHaveLength(50_001);
  });
});

describe('folderOf', () => {
  it('collapses a module to its feature folder, a shared folder, a server folder or a root file', () => {
    expect(folderOf(f('features/sales/sale-rules.ts'))).toBe('features/sales');
    expect(folderOf(f('features/shared/audit/audit.service.ts'))).toBe('features/shared/audit');
    expect(folderOf(f('lib/composer-versions/version-order.ts'))).toBe('lib');
    expect(folderOf(f('app.ts'))).toBe('app.ts');
    expect(folderOf('src/contract/sales.ts')).toBeNull();
    expect(folderOf(f('features/layers.json'))).toBeNull();
  });
});

describe('checkFolderGraph', () => {
  it('names the folder loop and the import lines that close it', () => {
    const report = checkFolderGraph(
      [
        module(f('features/billing/billing-periods.ts'), f('features/sales/sale-rules.ts')),
        module(f('features/sales/sales.service.ts'), f('features/billing/billing.service.ts')),
        module(f('features/billing/billing.service.ts')),
        module(f('features/sales/sale-rules.ts')),
      ],
      layers,
    );
    expect(report.loops).toHaveLength(1);
    expect(describeFolderGraph(report)).toEqual([
      'Folder loop: features/billing, features/sales. Move the shared piece down; the imports closing it:',
      '  src/server/features/billing/billing-periods.ts -> src/server/features/sales/sale-rules.ts',
      '  src/server/features/sales/sales.service.ts -> src/server/features/billing/billing.service.ts',
    ]);
  });

  it('reports imports that go up a layer or across channels, and folders without a kind', () => {
    const report = checkFolderGraph(
      [
        module(f('features/licenses/licenses.service.ts'), f('features/api-v1/audit.service.ts')),
        module(f('features/shared/audit/audit.service.ts'), f('features/licenses/licenses.service.ts')),
        module(f('features/portal/portal.service.ts'), f('features/api-v1/api-v1.service.ts')),
        module(f('lib/calendar.ts'), `type:${f('features/sales/sale-rules.ts')}`),
        module(f('features/teams/teams.service.ts')),
      ],
      layers,
    );
    expect(report.loops).toEqual([]);
    expect(report.upward.map((line) => `${line.fromLayer} -> ${line.toLayer}: ${line.from}`)).toEqual([
      'domain -> channel: src/server/features/licenses/licenses.service.ts',
      'shared -> domain: src/server/features/shared/audit/audit.service.ts',
      'channel -> channel: src/server/features/portal/portal.service.ts',
      'base -> domain: src/server/lib/calendar.ts',
    ]);
    expect(report.unlisted).toEqual(['features/teams']);
  });

  it('passes a layered DAG, leaving out tests and the injected context type', () => {
    const report = checkFolderGraph(
      [
        module(
          f('features/api-v1/api-v1.service.ts'),
          f('features/licenses/licenses.service.ts'),
          `type:${f('context.ts')}`,
        ),
        module(
          f('features/licenses/licenses.service.ts'),
          f('features/shared/audit/audit.service.ts'),
          f('lib/clock.ts'),
        ),
        module(f('features/shared/audit/audit.service.ts'), f('db/schema/index.ts'), `type:${f('context.ts')}`),
        module(f('context.ts'), `type:${f('features/licenses/download-counts.ts')}`),
        module(f('features/licenses/licenses.int.test.ts'), f('features/api-v1/api-v1.service.ts')),
        module(f('app.ts'), f('features/api-v1/api-v1.service.ts')),
      ],
      layers,
    );
    expect(describeFolderGraph(report)).toEqual([]);
  });
});
