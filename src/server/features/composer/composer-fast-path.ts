import type { IncomingMessage, ServerResponse } from 'node:http';
import { composerPaths } from '../../../contract/composer.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../http/errors.js';
import { type AppHostname, resolveHost } from '../../http/hosts.js';
import type { RequestOrigin } from '../../http/request-origin.js';
import { sha256Hex } from '../../lib/crypto.js';
import { composerAccessOf } from './access-feed.js';
import { getMetadata, getPackagesJson, parseMetadataFile, type RepositoryRequest } from './composer.service.js';
import { tokenFromAuthorization } from './composer-credentials.js';
import {
  acceptsGzip,
  composerErrorAnswer,
  JSON_TYPE,
  jsonBytes,
  metadataHeaders,
  PACKAGES_JSON_HEADERS,
} from './composer-responses.js';

// The warm Composer answers at static-file speed (issue 10). Composer asks for packages.json and one p2 file per
// package at every `composer update`; once a token's view is held (access-cache.ts), answering costs no database
// work, and what remained was Fastify's request machinery: its hooks (sessions, CSRF, hosts, overload, input checks)
// concern the app, not a metadata read. This path answers exactly those requests from the raw HTTP request, with the
// same service functions, rules and bytes as composer.routes.ts, and hands everything else to Fastify untouched:
// other methods and paths, a request without a credential, a host that is not a repository host under
// COMPOSER_DOMAIN (custom domains need a lookup), a token whose view is not held, and every refusal or error (the
// routes then answer it, with its warning and status, from scratch: nothing here has written to the response), except
// the plain 404 of a p2 file the token does not license, which must stay as fast as the 200 (it tells nothing).
// Warm answers are not access-logged, as a static file server's usually are not; downloads are counted in the
// database by the dist route, which always goes through Fastify.

/** Takes a raw request and returns true when it answers it; false leaves it to Fastify. */
export type ComposerFastPath = (raw: IncomingMessage, response: ServerResponse, fallback: () => void) => boolean;

export type FastPathDependencies = {
  originOf: (raw: IncomingMessage) => RequestOrigin;
  appHostname: AppHostname;
  /** helmet's headers, as every answer carries them (security-headers.ts). */
  securityHeaders: Record<string, string>;
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

type Answer = { status: number; headers: Record<string, string>; body?: Buffer };

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
    const tokenHash = sha256Hex(token);
    if (!composerAccessOf(ctx).findView(tokenHash)) return false;

    const target: RepositoryRequest = {
      seller: host.seller,
      token,
      tokenHash,
      authHost: origin.host,
      baseUrl: `${origin.protocol}://${origin.host}`,
    };
    const send = (answer: Answer) => {
      try {
        const headers = { ...dependencies.securityHeaders, ...answer.headers };
        if (answer.body) headers['content-length'] = String(answer.body.length);
        response.writeHead(answer.status, headers);
        response.end(answer.body);
      } catch (error) {
        // The client went away mid-answer; nothing is left to tell it.
        ctx.log.debug({ err: error }, 'a warm Composer answer could not be written');
        response.destroy();
      }
    };
    answerFor(ctx, door, target, raw).then(
      (answer) => {
        send(answer);
        dependencies.onAnswered(authorization);
      },
      (error: unknown) => {
        // A p2 file the token does not license is a plain, fast 404 (the route's isQuietNotFound), as fast as its 200.
        if (door.kind === 'metadata' && error instanceof AppError && error.status === 404) {
          send(composerErrorAnswer(error, true));
          return;
        }
        // Any other refusal (401, a closed repository) or error: the routes answer it in full, with its warning.
        fallback();
      },
    );
    return true;
  };
}
