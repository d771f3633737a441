import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  brandSettingsResponse,
  hostBrandResponse,
  LOGO_FIELD,
  LOGO_MAX_BYTES,
  updateBrandSettingsInput,
  uploadLogoResponse,
  verifyDomainResponse,
} from '../../../contract/branding.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { sellerRoutes } from '../../http/guarded-routes.js';
import * as branding from './branding.service.js';
import { logoContentTypes } from './logo-type.js';
import { fileTooLarge, invalidFileType, openLogo, storeLogo } from './logos.service.js';

// While an admin impersonates a seller, these act as that seller: request.seller is the impersonated user.

// A logo is an image that may be an SVG: whoever opens its URL directly must get a document that can do nothing
// (no script, no plugins, no loads, sandboxed into an opaque origin), and browsers must not guess another type.
const LOGO_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  // Names are random and never reused, so a stored logo never changes.
  'cache-control': 'public, max-age=31536000, immutable',
  // The package host page, the app and e-mail clients show it, each from its own origin.
  'cross-origin-resource-policy': 'cross-origin',
};
const SERVED_TYPES = new Set(Object.values(logoContentTypes));

/** Rate limits count per signed-in seller (the guard runs first), else per address. */
const sellerKey = (request: FastifyRequest) => (request.auth ? `seller:${request.auth.user.id}` : request.ip);

const logoParams = z.object({ userId: z.string(), file: z.string() });

export async function brandingRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const sellerApi = sellerRoutes(app);

  sellerApi.get(
    '/api/user/default-branding',
    { permission: 'dashboard:read', schema: { response: { 200: brandSettingsResponse } } },
    async (request) => branding.getBrandSettings(ctx, request.seller.id),
  );

  sellerApi.put(
    '/api/user/default-branding',
    {
      permission: 'branding:write',
      schema: { body: updateBrandSettingsInput, response: { 200: brandSettingsResponse } },
    },
    async (request) => branding.updateBrandSettings(ctx, request.seller.id, request.body),
  );

  sellerApi.post(
    '/api/user/default-branding/verify-domain',
    {
      permission: 'branding:write',
      schema: { response: { 200: verifyDomainResponse } },
      // Each call is a DNS lookup on the seller's behalf.
      config: { rateLimit: { max: 20, timeWindow: '1 minute', keyGenerator: sellerKey } },
    },
    async (request) => branding.verifyBrandDomain(ctx, request.seller.id),
  );

  // A host of no seller answers null, not 404: the unbranded page is a normal visit, not an error in the console.
  api.get(
    '/api/branding/host',
    { schema: { response: { 200: hostBrandResponse.nullable() } } },
    async (request, reply) => {
      const brand = await branding.findHostBrand(ctx, request.requestHost);
      // The page reads it on every visit; a saved change shows at the next one.
      return reply.header('cache-control', 'no-cache').send(brand);
    },
  );

  // Served on every host: the app shows it in the settings form, the package host on its page.
  api.get('/api/branding/logos/:userId/:file', { schema: { params: logoParams } }, async (request, reply) => {
    const logo = await openLogo(ctx, request.params.userId, request.params.file);
    return reply
      .headers(LOGO_HEADERS)
      .header('content-type', SERVED_TYPES.has(logo.contentType) ? logo.contentType : 'application/octet-stream')
      .header('content-length', String(logo.size))
      .header('last-modified', logo.lastModified.toUTCString())
      .send(logo.stream);
  });

  // Multipart parsing exists only in this plugin: no other route accepts multipart bodies.
  await app.register(async (uploads) => {
    await uploads.register(multipart, {
      // busboy stops reading the file at the limit and discards the rest, so an oversized upload is never held.
      limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6, headerPairs: 50 },
    });
    sellerRoutes(uploads).post(
      '/api/user/upload-logo-temp',
      {
        permission: 'branding:write',
        // Per seller: a form retried by hand never comes near it; a script filling storage does.
        config: { rateLimit: { max: 30, timeWindow: '1 minute', keyGenerator: sellerKey } },
        schema: { response: { 200: uploadLogoResponse } },
      },
      async (request) => {
        const userId = request.seller.id;
        let bytes: Buffer;
        try {
          const file = await request.file();
          if (!file) throw invalidFileType(`Send the image in the multipart field "${LOGO_FIELD}".`);
          if (file.fieldname !== LOGO_FIELD) {
            file.file.resume();
            throw invalidFileType(`Send the image in the multipart field "${LOGO_FIELD}".`);
          }
          bytes = await file.toBuffer();
        } catch (error) {
          throw toUploadError(error);
        }
        return storeLogo(ctx, userId, bytes);
      },
    );
  });
}

/** The multipart plugin's own errors, in the spec's words where the spec has them. */
function toUploadError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge();
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
    return new AppError('BAD_REQUEST', `Send the logo as multipart/form-data in the field "${LOGO_FIELD}".`);
  }
  if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
    return new AppError('BAD_REQUEST', `Send one image in the multipart field "${LOGO_FIELD}".`);
  }
  // Everything else thrown while reading the body is busboy refusing a malformed form (a broken boundary, a
  // part header cut short): the client's input, never a server fault.
  return new AppError('BAD_REQUEST', 'The upload could not be read as multipart/form-data.', {
    suggestion: `Send one image in the multipart field "${LOGO_FIELD}".`,
  });
}
