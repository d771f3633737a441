import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import {
  receiveSecretScanningReport,
  SECRET_SCANNING_PATH,
  verifySecretScanningSignature,
} from './secret-scanning.service.js';
import { createSecretScanningKeys } from './secret-scanning-keys.js';

// GitHub's secret scanning reports (issue 32 item 4). The signature covers the exact bytes sent, so this route reads
// its body raw: an encapsulated plugin with its own content-type parser (register it with app.register).

const REPORT_BODY_LIMIT = 1024 * 1024;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function secretScanningRoutes(app: FastifyInstance, options: { ctx: AppContext }): Promise<void> {
  const { ctx } = options;
  const keys = createSecretScanningKeys(ctx.config.secretScanningKeysUrl);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: REPORT_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });

  app.post(SECRET_SCANNING_PATH, { bodyLimit: REPORT_BODY_LIMIT }, async (request) => {
    const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    await verifySecretScanningSignature(
      keys,
      rawBody,
      header(request, 'github-public-key-identifier'),
      header(request, 'github-public-key-signature'),
    );
    return receiveSecretScanningReport(ctx, rawBody);
  });
}
