import type { Route } from './fuzz-inputs.js';
import type { TestApp } from './test-app.js';

// Which routes the fuzz suite sends inputs to, and which of its shards sends them: every shard reads the same
// router listing and splits it the same way, so the shards together cover every route exactly once.

/** How many fuzz files share the routes: src/server/http/fuzz-shard-1.int.test.ts ... fuzz-shard-N. */
export const FUZZ_SHARDS = 4;

/** Every route in the router's own listing: `├── /api/x (GET, POST)` lines, children indented under parents. */
export function routesOf(listing: string): Route[] {
  const routes: Route[] = [];
  const parents: string[] = [];
  for (const line of listing.split('\n')) {
    const branch = Math.max(line.indexOf('├── '), line.indexOf('└── '));
    const methodsStart = line.lastIndexOf(' (');
    if (branch < 0 || methodsStart < branch || !line.endsWith(')')) continue;
    const depth = branch / 4;
    const path = (parents[depth - 1] ?? '') + line.slice(branch + 4, methodsStart);
    parents[depth] = path;
    parents.length = depth + 1;
    for (const method of line.slice(methodsStart + 2, -1).split(', ')) {
      if (method !== 'HEAD' && method !== 'OPTIONS' && !path.includes('*')) routes.push({ method, url: path });
    }
  }
  return routes;
}

/** A route's group: its first two path segments (`/api/v1`, `/api/analytics`, `/p2/:vendor`). */
export function routeGroup(route: Route): string {
  return route.url.split('/').slice(0, 3).join('/');
}

/**
 * The routes of shard `shard` (0-based) of `count`: whole groups, largest first, each to the shard with the fewest
 * routes so far (ties to the lowest shard), so the shards take about the same time and a group stays together.
 */
export function shardRoutes(routes: Route[], shard: number, count: number): Route[] {
  const groups = new Map<string, Route[]>();
  for (const route of routes) {
    const group = routeGroup(route);
    groups.set(group, [...(groups.get(group) ?? []), route]);
  }
  const ordered = [...groups].sort(([nameA, a], [nameB, b]) => b.length - a.length || nameA.localeCompare(nameB));
  const shards = Array.from({ length: count }, () => [] as Route[]);
  for (const [, members] of ordered) {
    const smallest = shards.reduce((best, candidate) => (candidate.length < best.length ? candidate : best));
    smallest.push(...members);
  }
  return shards[shard]!;
}

/** Routes served to Composer (repository host): everything outside /api, and /api/composer. */
export function isComposerRoute(route: Route): boolean {
  return !route.url.startsWith('/api/') || route.url.startsWith('/api/composer/');
}

/** Routes that answer on a seller's repository host: Composer's, the holder's portal and the purchase pages' API. */
export function isRepositoryHostRoute(route: Route): boolean {
  return isComposerRoute(route) || route.url.startsWith('/api/portal/') || route.url.startsWith('/api/purchase/');
}

/**
 * The routes that answer JSON: a GET that answers 2xx with another type (the web app's assets, the API reference
 * page and its script) serves files, not input; every other route is fuzzed.
 */
export async function jsonRoutes(app: TestApp, routes: Route[]): Promise<Route[]> {
  const kept: Route[] = [];
  for (const route of routes) {
    if (route.method === 'GET' && !route.url.includes(':')) {
      const answer = await app.app.inject({ method: 'GET', url: route.url });
      const type = String(answer.headers['content-type'] ?? '');
      if (answer.statusCode < 300 && !type.startsWith('application/json')) continue;
    }
    kept.push(route);
  }
  return kept;
}
