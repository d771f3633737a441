import type { IncomingMessage, ServerResponse } from 'node:http';
import { composerPaths } from '../../../contract/composer.js';
import type { AppContext } from '../../context.js';
import { type AppHostname, resolveHost } from '../../http/hosts.js';
import type { RequestOrigin } from '../../http/request-origin.js';
import type { SecurityHeaders } from '../../http/security-headers.js';
import { sha256Hex } from '../../lib/crypto.js';
import { composerAccessOf } from './access-feed.js';
import { getMetadata, getPackagesJson, parseMetadataFile, type RepositoryRequest } from './composer.service.js';
import { tokenFromAuthorization } from './composer-credentials.js';
import { acceptsGzip, JSON_TYPE, jsonBytes, metadataHeaders, PACKAGES_JSON_HEADERS } from './composer-responses.js';

// The warm Composer answers at static-file speed (issue 10). Composer asks for packages.json and one p2 file per
// package at every `composer update`; once a token's view is held (access-cache.ts), answering costs no database
// work, and what remained was Fastify's request machinery: its hooks (sessions, CSRF, hosts, overload, input checks)
// concern the app, not a metadata read. This path answers exactly those requests from the raw HTTP request, with the
// same service functions, rules and bytes as composer.routes.ts, and hands everything else to Fastify untouched:
// other methods and paths, a request without a credential, a host that is not a repository host under
// COMPOSER_DOMAIN (custom domains need a lookup), a token whose view is not held, and every refusal or error (the
// routes then answer it, with its warning and status, from scratch: nothing here has written to the response).
// Warm answers are not access-logged, as a static file server's usually are not; downloads are counted in the
// database by the dist route, which always goes through Fastify.

/** Takes a raw request and returns true when it answers it; false leaves it to Fastify. */
export type ComposerFastPath = (raw: IncomingMessage, response: ServerResponse, fallback: () => void) => boolean;

export type FastPathDependencies = {
  originOf: (raw: IncomingMessage) => RequestOrigin;
  appHostname: AppHostname;
  securityHeaders: SecurityHeaders;
  /** Called with the Authorization header of every answered request (overload shedding keeps such clients first). */
  onAnswered: (authorization: string) => void;
};

type Door = { kind: 'packages' } | { kind: 'metadata'; packageName: string; fileKind: 'tag' | 'branch' };

const METADATA_PREFIX = '/p2/';

/** The door a path names, for the plain paths Composer requests; escapes, queries and anything else go to Fastify. */
function doorOf(url: string): Door | undefined {
  if (url === composerPaths.packagesJson) return { kind: 'packages' };
  if (!url.startsWith(METADATA_PREFIX) || url.includes('%') || url.includes('?')) return undefined;
  const rest = url.slice(METADATA_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash === -1 || rest.indexOf('/', slash + 1) !== -1) return undefined;
  const file = parseMetadataFile(rest.slice(0, slash), rest.slice(slash + 1));
  return file ? { kind: 'metadata', packageName: file.packageName, fileKind: file.kind } : undefined;
}

type Answer = { status: 200 | 304; headers: Record<string, string>; body?: Buffer };

async function answerFor(
  ctx: AppContext,
  door: Door,
  target: RepositoryRequest,
  raw: IncomingMessage,
): Promise<Answer> {
  if (door.kind === 'packages') {
    return { status: 200, headers: { ...PACKAGES_JSON_HEADERS }, body: jsonBytes(await getPackagesJson(ctx, target)) };
  }
  const file = { packageName: door.packageName, kind: door.fileKind };
  const result = await getMetadata(ctx, target, file, raw.headers['if-modified-since']);
  const headers = metadataHeaders(result.lastModified);
  if (result.isNotModified) return { status: 304, headers };
  headers['content-type'] = JSON_TYPE;
  if (acceptsGzip(raw.headers['accept-encoding'])) {
    headers['content-encoding'] = 'gzip';
    return { status: 200, headers, body: result.body.gzipped() };
  }
  return { status: 200, headers, body: result.body.bytes };
}

export function createComposerFastPath(ctx: AppContext, dependencies: FastPathDependencies): ComposerFastPath {
  return (raw, response, fallback) => {
    if (raw.method !== 'GET' || raw.url === undefined) return false;
    const door = doorOf(raw.url);
    if (!door) return false;
    const authorization = raw.headers.authorization;
    const token = tokenFromAuthorization(authorization);
    if (!authorization || !token) return false;
    const origin = dependencies.originOf(raw);
    const host = resolveHost(ctx.config, origin.host, dependencies.appHostname);
    if (host.kind !== 'repository') return false;
    if (!composerAccessOf(ctx).findView(sha256Hex(token))) return false;

    const target: RepositoryRequest = {
      seller: host.seller,
      token,
      authHost: origin.host,
      baseUrl: `${origin.protocol}://${origin.host}`,
    };
    answerFor(ctx, door, target, raw).then(
      (answer) => {
        try {
          dependencies.securityHeaders(raw, response, () => {});
          if (answer.body) answer.headers['content-length'] = String(answer.body.length);
          response.writeHead(answer.status, answer.headers);
          response.end(answer.body);
          dependencies.onAnswered(authorization);
        } catch (error) {
          // The client went away mid-answer; nothing is left to tell it.
          ctx.log.debug({ err: error }, 'a warm Composer answer could not be written');
          response.destroy();
        }
      },
      // A refusal (401, 404, a closed repository) or an error: the routes answer it in full.
      () => fallback(),
    );
    return true;
  };
}
