import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { composerPaths, notifyBatchInput } from '../../../contract/composer.js';
import { OpenFile, sendOpenFile } from '../../adapters/storage/file-sender.js';
import type { AppContext } from '../../context.js';
import { AppError, toAppError } from '../../http/errors.js';
import { hostAuthority, hostUrl } from '../../http/public-urls.js';
import { createSecurityHeaders, securityHeaderValues } from '../../http/security-headers.js';
import { tokenFromAuthorization } from './composer-credentials.js';
import { openDistDownload } from './composer-dist.service.js';
import { getMetadata, getPackagesJson, LicenseRefusedNotFound } from './composer-metadata.service.js';
import { DIST_ROUTE, METADATA_ROUTE } from './composer-metrics.js';
import { parseMetadataFile } from './composer-render.js';
import {
  answerHeaders,
  type ComposerAnswer,
  type ComposerOutcome,
  composerAnswer,
  composerSecurityHeaders,
  headerRecord,
  JSON_TYPE,
  jsonBytes,
} from './composer-responses.js';
import { type RepositoryRequest, requireToken } from './repository-request.js';

// The Composer repository's doors. They answer only on repository hosts (`{slug}.{COMPOSER_DOMAIN}` and the bare
// COMPOSER_DOMAIN), never on the app's host: Composer keeps one credential per host, so a token configured for
// the app's host would be sent to whatever else lives there (every /api route), and one seller's repository URL
// would not be distinguishable from another's. None of them is rate-limited: Composer does not retry a 429.

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answer 404s without a Composer warning: an unlicensed p2 file is a plain, fast 404. */
    isQuietNotFound?: boolean;
  }
}

function repositoryRequest(ctx: AppContext, request: FastifyRequest): RepositoryRequest {
  const host = request.requestHost;
  // The hook below refuses every other host. URLs name the host the request resolved to (a name Packgate knows:
  // Composer sends the bearer credential to that host only), with PUBLIC_URL's scheme and port, never the header.
  const hostname = host.kind === 'repository' ? host.hostname : ctx.config.composerDomain;
  return {
    seller: host.kind === 'repository' ? host.seller : undefined,
    token: tokenFromAuthorization(request.headers.authorization),
    authHost: hostAuthority(ctx.config, hostname),
    baseUrl: hostUrl(ctx.config, hostname),
    clientAddress: request.ip,
  };
}

/** Writes what composerAnswer made of the outcome (the security headers are on the raw response already). */
function send(reply: FastifyReply, request: FastifyRequest, outcome: ComposerOutcome): FastifyReply {
  const answer: ComposerAnswer = composerAnswer(outcome, { acceptEncoding: request.headers['accept-encoding'] });
  if (answer.statusMessage !== undefined) reply.raw.statusMessage = answer.statusMessage;
  // Always bytes: Fastify appends a charset to a JSON type sent as text (composer-responses.ts). The routes pass no
  // request id, so their answers carry no text today; this keeps it so if one ever does.
  const { body } = answer;
  return reply
    .code(answer.status)
    .headers(headerRecord(answerHeaders(answer)))
    .send(typeof body === 'string' ? Buffer.from(body) : body);
}

export async function composerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // The app's hook has set helmet's headers on the raw response; these doors answer with their own set instead.
  const helmetHeaders = securityHeaderValues(createSecurityHeaders(ctx.config));
  const documentHeaders = Object.keys(helmetHeaders);
  const answerHeaders = Object.entries(composerSecurityHeaders(helmetHeaders));
  await app.register(async (repository) => {
    repository.setErrorHandler((error, request, reply) => {
      const appError = toAppError(error);
      if (!appError) {
        request.log.error({ err: error }, 'unhandled error on a Composer endpoint');
        const internal = new AppError('INTERNAL', 'A server error occurred. Please try again later.');
        return send(reply, request, { kind: 'refused', error: internal, isQuiet: false });
      }
      const isQuiet =
        appError.status === 404 &&
        request.routeOptions.config.isQuietNotFound === true &&
        !(appError instanceof LicenseRefusedNotFound);
      return send(reply, request, { kind: 'refused', error: appError, isQuiet });
    });

    repository.addHook('onRequest', async (request, reply) => {
      for (const name of documentHeaders) reply.raw.removeHeader(name);
      for (const [name, value] of answerHeaders) reply.raw.setHeader(name, value);
      if (request.requestHost.kind !== 'repository') {
        throw new AppError('NOT_FOUND', 'Composer repositories are not served on this host.', {
          suggestion: `Use the repository URL from your license e-mail (a host under ${ctx.config.composerDomain}).`,
        });
      }
    });

    repository.get(composerPaths.packagesJson, async (request, reply) => {
      const bytes = await getPackagesJson(ctx, repositoryRequest(ctx, request));
      return send(reply, request, { kind: 'packages-json', bytes });
    });

    repository.get<{ Params: { vendor: string; file: string } }>(
      METADATA_ROUTE,
      { config: { isQuietNotFound: true } },
      async (request, reply) => {
        const target = repositoryRequest(ctx, request);
        const file = parseMetadataFile(request.params.vendor, request.params.file);
        if (!file) {
          // Still a 401 without a credential: Composer must learn that this host wants one.
          requireToken(target);
          throw new AppError('NOT_FOUND', 'No such package file in this repository.');
        }
        return send(reply, request, await getMetadata(ctx, target, file, request.headers['if-modified-since']));
      },
    );

    repository.get<{ Params: { vendor: string; package: string; version: string } }>(
      DIST_ROUTE,
      // A HEAD would count a download without delivering one.
      { exposeHeadRoute: false },
      async (request, reply) => {
        const { vendor, package: name, version } = request.params;
        const download = await openDistDownload(ctx, repositoryRequest(ctx, request), `${vendor}/${name}`, version);
        const headers = {
          'content-type': 'application/zip',
          'content-length': String(download.size),
          'content-disposition': `attachment; filename="${download.fileName}"`,
          'cache-control': 'private, no-store',
        };
        if (download.content instanceof OpenFile) {
          // A large stored zip is written from its file here (file-sender.ts); Fastify's onResponse hooks still
          // count and log it when the response finishes.
          reply.hijack();
          reply.raw.writeHead(200, headers);
          sendOpenFile(reply.raw, download.content, download.size);
          return reply;
        }
        return reply.headers(headers).send(download.content);
      },
    );

    // Composer reports installs here after the fact, also for zips it took from its own cache. Downloads are
    // counted where they happen (the dist endpoint, authenticated and atomic against the limit), so a notify is
    // acknowledged and not stored: recording it too would count one install twice.
    repository.post(composerPaths.notifyBatch, { bodyLimit: 256 * 1024 }, async (request, reply) => {
      const parsed = notifyBatchInput.safeParse(request.body ?? {});
      if (!parsed.success) throw new AppError('BAD_REQUEST', 'Expected {"downloads": [{"name", "version"}]}.');
      return reply.header('content-type', JSON_TYPE).send(jsonBytes({ status: 'success' }));
    });
  });
}
