import { composerPaths } from '../../../contract/composer.js';
import type { BoundRequest, Metrics } from '../../observability/metrics.js';

// The Composer doors in /metrics (observability/metrics.ts): one route label per door, the same whether the fast
// path (composer-fast-path.ts) or Fastify (composer.routes.ts) answered, so a dashboard sees one series per door.

/** The route label of the Composer doors. */
export const composerRouteLabels = {
  packages: 'composer:packages',
  metadata: 'composer:metadata',
  dist: 'composer:dist',
} as const;

/** The Fastify route patterns of the doors (composer.routes.ts registers them). */
export const METADATA_ROUTE = '/p2/:vendor/:file';
export const DIST_ROUTE = `${composerPaths.downloadPrefix}/:vendor/:package/:version`;

const labelByPattern = new Map<string, string>([
  [composerPaths.packagesJson, composerRouteLabels.packages],
  [METADATA_ROUTE, composerRouteLabels.metadata],
  [DIST_ROUTE, composerRouteLabels.dist],
]);

/** The label Fastify's answers are counted under: a Composer door's `composer:*`, any other route's pattern. */
export function routeLabel(pattern: string | undefined): string | undefined {
  return pattern === undefined ? undefined : (labelByPattern.get(pattern) ?? pattern);
}

/** The warm door's answers, bound once: the fast path counts with no label lookup of its own. */
export type ComposerDoorMetrics = {
  packages: BoundRequest;
  metadata: BoundRequest;
  notModified: BoundRequest;
  notFound: BoundRequest;
};

export function bindComposerDoors(metrics: Pick<Metrics, 'bindRequest'>): ComposerDoorMetrics {
  return {
    packages: metrics.bindRequest(composerRouteLabels.packages, 200),
    metadata: metrics.bindRequest(composerRouteLabels.metadata, 200),
    notModified: metrics.bindRequest(composerRouteLabels.metadata, 304),
    notFound: metrics.bindRequest(composerRouteLabels.metadata, 404),
  };
}
