import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { acceptRawBodies, firstHeader, rawBodyOf } from '../../http/raw-body.js';
import {
  receiveSecretScanningReport,
  SECRET_SCANNING_PATH,
  verifySecretScanningSignature,
} from './secret-scanning.service.js';
import { createSecretScanningKeys } from './secret-scanning-keys.js';

// GitHub's secret scanning reports (issue 32 item 4). The signature covers the exact bytes sent, so this route reads
// its body raw: an encapsulated plugin with its own content-type parser (register it with app.register).

const REPORT_BODY_LIMIT = 1024 * 1024;

export async function secretScanningRoutes(app: FastifyInstance, options: { ctx: AppContext }): Promise<void> {
  const { ctx } = options;
  const keys = createSecretScanningKeys(ctx.config.secretScanningKeysUrl);
  acceptRawBodies(app, REPORT_BODY_LIMIT);

  app.post(SECRET_SCANNING_PATH, { bodyLimit: REPORT_BODY_LIMIT }, async (request) => {
    const rawBody = rawBodyOf(request);
    await verifySecretScanningSignature(
      keys,
      rawBody,
      firstHeader(request, 'github-public-key-identifier'),
      firstHeader(request, 'github-public-key-signature'),
    );
    return receiveSecretScanningReport(ctx, rawBody);
  });
}
