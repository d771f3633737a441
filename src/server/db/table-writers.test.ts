import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import * as schema from './schema/index.js';

// Each table has one domain that writes it; other domains call that domain's service (issue 9). A domain is a
// folder of src/server/features, or another folder of src/server (http/ writes sessions, jobs/ the jobs table).

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tableNames = Object.entries(schema)
  .filter(([, value]) => is(value, PgTable))
  .map(([name]) => name);
const write = new RegExp(`\\.(?:insert|update|delete)\\(\\s*(${tableNames.join('|')})\\s*\\)`, 'g');

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function domainOf(file: string): string {
  const [top, feature] = path.relative(serverRoot, file).split(path.sep);
  return top === 'features' ? `features/${feature}` : (top ?? file);
}

describe('table writers', () => {
  it('finds the tables it checks', () => {
    expect(tableNames).toEqual(expect.arrayContaining(['packages', 'grants', 'platformSubscriptions']));
  });

  it('lets one domain write each table', async () => {
    const writers = new Map<string, Set<string>>();
    for (const file of await sourceFiles(serverRoot)) {
      for (const match of (await readFile(file, 'utf8')).matchAll(write)) {
        const table = match[1]!;
        const domains = writers.get(table) ?? new Set<string>();
        domains.add(`${domainOf(file)} (${path.relative(serverRoot, file)})`);
        writers.set(table, domains);
      }
    }
    const shared = [...writers]
      .map(([table, files]) => ({ table, domains: new Set([...files].map((entry) => entry.split(' ')[0])), files }))
      .filter(({ domains }) => domains.size > 1)
      .map(({ table, files }) => `${table}: ${[...files].sort().join(', ')}`);
    expect(shared).toEqual([]);
    expect(writers.size).toBeGreaterThan(10);
  });
});
