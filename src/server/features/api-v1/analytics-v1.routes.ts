import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  downloadSeries,
  downloadSeriesQuery,
  sharingSignal,
  sharingSignalQuery,
  staleHolders,
  staleHoldersQuery,
  topHolders,
  topHoldersQuery,
  versionAdoption,
  versionAdoptionQuery,
} from '../../../contract/analytics.js';
import type { AppContext } from '../../context.js';
import * as analytics from '../analytics/analytics.service.js';
import { requireApiToken } from './api-v1-auth.js';
import { envelope, okResponses } from './envelope.js';

// The seller's analytics in API v1 (issue 14), answered by the same service as the Analytics page, so both show the
// same numbers. They live beside the other v1 routes because a feature reaches another only through its service.

export async function analyticsV1Routes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const seller = (request: Parameters<typeof requireApiToken>[0]) => requireApiToken(request).sellerId;
  const read = { apiPermission: 'analytics:read' as const };

  api.get(
    '/analytics/downloads',
    {
      config: read,
      schema: {
        tags: ['Analytics'],
        summary: 'Downloads over time',
        description:
          'Downloads per day or week (UTC) over the last 30, 90 or 365 days: all packages, one package, one license holder, or both.',
        querystring: downloadSeriesQuery,
        response: okResponses(downloadSeries),
      },
    },
    async (request) => {
      const series = await analytics.getDownloadSeries(ctx, seller(request), request.query);
      return envelope(series, { period: `${series.from}/${series.to}` });
    },
  );

  api.get(
    '/analytics/versions',
    {
      config: read,
      schema: {
        tags: ['Analytics'],
        summary: 'Version adoption',
        description:
          'For each license that still lets its holder install, the version downloaded last; per package, how many holders are on each version and major line (`1.x`).',
        querystring: versionAdoptionQuery,
        response: okResponses(versionAdoption),
      },
    },
    async (request) => envelope(await analytics.getVersionAdoption(ctx, seller(request), request.query)),
  );

  api.get(
    '/analytics/top-holders',
    {
      config: read,
      schema: {
        tags: ['Analytics'],
        summary: 'Top license holders',
        description: 'License holders with the most downloads in the period.',
        querystring: topHoldersQuery,
        response: okResponses(topHolders),
      },
    },
    async (request) => envelope(await analytics.getTopHolders(ctx, seller(request), request.query)),
  );

  api.get(
    '/analytics/stale-holders',
    {
      config: read,
      schema: {
        tags: ['Analytics'],
        summary: 'Holders who have not updated',
        description:
          'Live licenses (active, not expired) whose holder has not downloaded the package in the given number of months, or never.',
        querystring: staleHoldersQuery,
        response: okResponses(staleHolders),
      },
    },
    async (request) => envelope(await analytics.getStaleHolders(ctx, seller(request), request.query)),
  );

  api.get(
    '/analytics/sharing',
    {
      config: read,
      schema: {
        tags: ['Analytics'],
        summary: 'Sharing signal',
        description:
          "Days on which one holder's token downloaded from many distinct networks (/24 IPv4, /48 IPv6; addresses are never stored). A signal to look at, never a block.",
        querystring: sharingSignalQuery,
        response: okResponses(sharingSignal),
      },
    },
    async (request) => envelope(await analytics.getSharingSignal(ctx, seller(request), request.query)),
  );
}
