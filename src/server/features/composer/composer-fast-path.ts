import type { IncomingMessage, ServerResponse } from 'node:http';
// The module's own binding: the global `performance` is an accessor on globalThis, and reading it cost the warm door a
// LoadGlobalIC call per reading (0.8% of its CPU in perf, issue 34); this one is a plain import.
import { performance } from 'node:perf_hooks';
import { composerPaths } from '../../../contract/composer.js';
import type { AppContext } from '../../context.js';
import type { ConnectionAnswerer } from '../../http/connection-door.js';
import type { ParsedHost } from '../../http/host-header.js';
import { type AppHostname, type RequestHost, resolveHost } from '../../http/hosts.js';
import type { FastPaths, RawFastPath } from '../../http/http-server.js';
import { connectionAnswerHead, endPreformatted, setPreformattedHead } from '../../http/preformatted-head.js';
import { hostAuthority, hostUrl } from '../../http/public-urls.js';
import { decideRequestId, REQUEST_ID_HEADER } from '../../http/request-id.js';
import type { OriginSource, RequestOrigin } from '../../http/request-origin.js';
import { createBoundedMemo } from '../../lib/bounded-memo.js';
import type { Metrics } from '../../observability/metrics.js';
import type { TokenView } from './access-view.repository.js';
import { createCredentialReader } from './composer-credentials.js';
import {
  decideMetadata,
  findHeldMetadataOutcome,
  getMetadata,
  packagesJsonBytes,
} from './composer-metadata.service.js';
import { bindComposerDoors, composerRouteLabels } from './composer-metrics.js';
import { parseMetadataFile } from './composer-render.js';
import {
  answerHeaders,
  answerLines,
  type ComposerAnswer,
  type ComposerOutcome,
  composerAnswer,
  composerSecurityHeaders,
} from './composer-responses.js';
import { noteTokenUse, notLicensedFacts, type RepositoryRequest } from './repository-request.js';
import { tokenStanding } from './token-standing.js';

// The warm Composer answers at static-file speed (issue 10). Composer asks for packages.json and one p2 file per
// package at every `composer update`; once a token's view is held (access-cache.ts), answering costs no database
// work, and what remained was Fastify's request machinery: its hooks (sessions, CSRF, hosts, overload, input checks)
// concern the app, not a metadata read. This path answers exactly those requests from the raw HTTP request, with the
// same service functions and rules as composer.routes.ts and the same answer (composerAnswer, composer-responses.ts),
// and hands everything else to Fastify untouched:
// other methods and paths, a request without a credential, a host that is not a repository host under
// COMPOSER_DOMAIN (custom domains need a lookup), a token whose view is not held, and every refusal or error (the
// routes then answer it, with its warning and status, from scratch: nothing here has written to the response), except
// the plain 404 of a p2 file the token does not license, which must stay as fast as the 200 (it tells nothing).
// Warm answers are not access-logged, as a static file server's usually are not; downloads are counted in the
// database by the dist route, which always goes through Fastify. A new connection's warm requests are read and answered
// before node:http (answerOnConnection, http/connection-door.ts), with the same admission and decisions.

export type FastPathDependencies = {
  originOf: (raw: OriginSource) => RequestOrigin;
  appHostname: AppHostname;
  /** helmet's headers (security-headers.ts): Composer answers keep the ones that matter to them (composerSecurityHeaders). */
  securityHeaders: Record<string, string>;
  /** Called with the Authorization header of every answered request (overload shedding keeps such clients first). */
  onAnswered: (authorization: string) => void;
  /** The doors' request counts and latencies, bound once (composer-metrics.ts), and any other answer's. */
  metrics: Pick<Metrics, 'bindRequest' | 'observeRequest'>;
};

/** A p2 file as the metadata service names it. */
type MetadataFile = { packageName: string; kind: 'tag' | 'branch' };

type Door = { kind: 'packages' } | { kind: 'metadata'; file: MetadataFile };

const METADATA_PREFIX = '/p2/';

const PACKAGES_DOOR: Door = { kind: 'packages' };

/** The door a path names, for the plain paths Composer requests; escapes, queries and anything else go to Fastify. */
function parseDoor(url: string): Door | undefined {
  if (url === composerPaths.packagesJson) return PACKAGES_DOOR;
  if (!url.startsWith(METADATA_PREFIX) || url.includes('%') || url.includes('?')) return undefined;
  const rest = url.slice(METADATA_PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash === -1 || rest.indexOf('/', slash + 1) !== -1) return undefined;
  const file = parseMetadataFile(rest.slice(0, slash), rest.slice(slash + 1));
  return file ? { kind: 'metadata', file } : undefined;
}

/**
 * The door of each p2 path asked for lately (frozen: every request of the path shares it). The same few hundred
 * packages are asked for again and again; a lookup costs less than the parse, its package-name check and its objects
 * (issue 34). Paths that name no door are not kept.
 */
const doorsByPath = createBoundedMemo(4096, (url: string): Door | undefined => {
  const door = parseDoor(url);
  if (door?.kind === 'metadata') Object.freeze(door.file);
  return door && Object.freeze(door);
});

const doorOf = (url: string): Door | undefined => doorsByPath.get(url);

/** Remembering a credential for overload shedding hashes it; once a minute per held view is plenty for its 10 min. */
const REMEMBER_EVERY_MS = 60_000;

/**
 * Authorization headers whose reading (token and hash) is remembered: every holder of a busy process a few times
 * over, within 4 MB (composer-credentials.ts: the reading, never whether the token works).
 */
const CREDENTIAL_BOUNDS = { maxEntries: 10_000, maxBytes: 4 * 1024 * 1024 };

/** What the door reads of a request, whichever reader read it (node:http's IncomingMessage or the connection door). */
type DoorRequest = Pick<IncomingMessage, 'method' | 'url' | 'headers' | 'socket'>;

/** A request the door may answer: what admitting it read and decided. */
type Admitted = {
  door: Door;
  startedAt: number;
  authorization: string;
  view: TokenView;
  now: Date;
  target: RepositoryRequest;
};

/** A repository host as the routes name it, from a parsed Host, with the configuration it was resolved under. */
type ResolvedHost = { publicUrl: string; composerDomain: string; host: RequestHost; authHost: string; baseUrl: string };

export function createComposerFastPath(ctx: AppContext, dependencies: FastPathDependencies): FastPaths {
  const securityHeaders = composerSecurityHeaders(dependencies.securityHeaders);
  const rememberedAt = new WeakMap<TokenView, { authorization: string; at: number }>();
  const credentials = createCredentialReader(CREDENTIAL_BOUNDS);
  const composerDoors = bindComposerDoors(dependencies.metrics);
  const { observeRequest } = dependencies.metrics;
  // Kept per parsed host: request-origin.ts gives a connection's requests the same parse while the Host stays the
  // same, so a warm request resolves nothing and builds no URL (issue 34). A changed PUBLIC_URL or COMPOSER_DOMAIN
  // (tests change them) resolves anew.
  const resolvedHosts = new WeakMap<ParsedHost, ResolvedHost>();
  const resolvedHostOf = (parsed: ParsedHost): ResolvedHost => {
    const { publicUrl, composerDomain } = ctx.config;
    let resolved = resolvedHosts.get(parsed);
    if (resolved === undefined || resolved.publicUrl !== publicUrl || resolved.composerDomain !== composerDomain) {
      const host = resolveHost(ctx.config, parsed, dependencies.appHostname);
      const hostname = host.kind === 'repository' ? host.hostname : parsed.hostname;
      resolved = {
        publicUrl,
        composerDomain,
        host,
        // The resolved name with PUBLIC_URL's scheme and port, as the routes name it; never the header as written.
        authHost: hostAuthority(ctx.config, hostname),
        baseUrl: hostUrl(ctx.config, hostname),
      };
      resolvedHosts.set(parsed, resolved);
    }
    return resolved;
  };

  /** One increment and one observation per answer, on a series bound at start-up; `endedAt` from performance.now(). */
  const count = (door: Door, status: number, startedAt: number, endedAt: number) => {
    const seconds = (endedAt - startedAt) / 1000;
    const series =
      door.kind === 'packages'
        ? status === 200
          ? composerDoors.packages
          : undefined
        : status === 200
          ? composerDoors.metadata
          : status === 304
            ? composerDoors.notModified
            : status === 404
              ? composerDoors.notFound
              : undefined;
    if (series) {
      series.observe(seconds);
    } else {
      observeRequest(
        door.kind === 'packages' ? composerRouteLabels.packages : composerRouteLabels.metadata,
        status,
        seconds,
      );
    }
  };

  /**
   * The answer's head lines as text: its headers checked once per kind (http/preformatted-head.ts), then this answer's
   * own values, all made here: an id of safe characters, a length (issue 34: node:http's writeHead checked and built
   * each line at every answer). Undefined where writeHead must write the head (a header refused, a status message).
   */
  const headLinesOf = (answer: ComposerAnswer, requestId: string): string | undefined => {
    const lines = answer.statusMessage === undefined ? answerLines(answer) : undefined;
    if (lines === undefined) return undefined;
    // A text body is ASCII (composer-responses.ts): its length is its byte length.
    const length = answer.body ? `content-length: ${answer.body.length}\r\n` : '';
    return `${lines}${REQUEST_ID_HEADER}: ${requestId}\r\n${length}`;
  };

  const send = (response: ServerResponse, answer: ComposerAnswer, requestId: string) => {
    try {
      const { status, body } = answer;
      const lines = headLinesOf(answer, requestId);
      if (lines !== undefined) {
        if (setPreformattedHead(response, status, lines)) {
          endPreformatted(response, body);
          return;
        }
      }
      // Anything else in one writeHead with every header and one end with the body, as a bare node:http server
      // writes: no header was set before (http-server.ts leaves X-Request-Id to this door).
      const headers = answerHeaders(answer);
      headers.push(REQUEST_ID_HEADER, requestId);
      if (body) headers.push('content-length', String(body.length));
      if (answer.statusMessage === undefined) response.writeHead(status, headers);
      else response.writeHead(status, answer.statusMessage, headers);
      response.end(body);
    } catch (error) {
      // The client went away mid-answer; nothing is left to tell it.
      ctx.log.debug({ err: error }, 'a warm Composer answer could not be written');
      response.destroy();
    }
  };

  /** `at`: performance.now() when the answer was written (one reading of it per answer serves count and this). */
  const remember = (view: TokenView, authorization: string, now: Date, at: number) => {
    // The token's last use, written at most once a minute by the app's clock (a map lookup otherwise): no warm
    // answer waits for it.
    noteTokenUse(ctx, view, now);
    // Overload shedding's memory runs on the process's own (monotonic) time, whatever clock the app is given.
    const last = rememberedAt.get(view);
    if (last && last.authorization === authorization && at - last.at < REMEMBER_EVERY_MS) return;
    rememberedAt.set(view, { authorization, at });
    dependencies.onAnswered(authorization);
  };

  /** The outcome from what is held, or undefined when the package's versions must be read first. */
  const heldOutcome = (
    door: Door,
    view: TokenView,
    target: RepositoryRequest,
    raw: DoorRequest,
    now: Date,
  ): ComposerOutcome | undefined => {
    if (door.kind === 'packages') return { kind: 'packages-json', bytes: packagesJsonBytes(ctx, view, target, now) };
    const { file } = door;
    const decided = decideMetadata(ctx, view, target, file, now);
    if (decided.kind === 'refused') {
      // A p2 file the token does not license is a plain, fast 404 (the route's isQuietNotFound), as fast as its 200;
      // one whose licenses refuse now says why, through the routes.
      if (decided.messages) return undefined;
      return { kind: 'refused', error: notLicensedFacts(decided.packageName), isQuiet: true };
    }
    return findHeldMetadataOutcome(ctx, target, file.kind, decided, raw.headers['if-modified-since']);
  };

  /** composerAnswer with this door's security headers and, for a refusal, the request's id in its body. */
  const answerOf = (outcome: ComposerOutcome, raw: DoorRequest, requestId: string): ComposerAnswer =>
    composerAnswer(
      outcome,
      { acceptEncoding: raw.headers['accept-encoding'], requestId: outcome.kind === 'refused' ? requestId : undefined },
      securityHeaders,
    );

  /** What a request the door may answer names, read once: undefined sends it (and on a connection, the connection) on. */
  const admit = (raw: DoorRequest): Admitted | undefined => {
    if (raw.method !== 'GET' || raw.url === undefined) return undefined;
    const door = doorOf(raw.url);
    if (!door) return undefined;
    const startedAt = performance.now();
    const authorization = raw.headers.authorization;
    const credential = credentials.readOn(raw.socket, authorization);
    if (!authorization || !credential) return undefined;
    // The same parse as Fastify's hook (http/hosts.ts): a Host that is not hostname[:port] goes there for its 400.
    const parsedHost = dependencies.originOf(raw).host;
    if (parsedHost === undefined || parsedHost === 'invalid') return undefined;
    const { host, authHost, baseUrl } = resolvedHostOf(parsedHost);
    if (host.kind !== 'repository') return undefined;
    const { token, tokenHash } = credential;
    const view = ctx.composerAccess.findViewOrPassOn(tokenHash);
    if (!view) return undefined;
    // A token that no longer works is refused by the routes (401 with its reason); one in a rotation's overlap or
    // reported as leaked still works here, and packages.json says so.
    // One reading of the clock for every decision of this request (the routes' services read it themselves).
    const now = ctx.clock.now();
    if (tokenStanding(view.token, now, '').kind === 'refused') return undefined;
    const target: RepositoryRequest = { seller: host.seller, token, tokenHash, authHost, baseUrl };
    return { door, startedAt, authorization, view, now, target };
  };

  /** Counted and remembered once the answer is written. */
  const answered = (admitted: Admitted, status: number) => {
    const endedAt = performance.now();
    count(admitted.door, status, admitted.startedAt, endedAt);
    if (status < 400) remember(admitted.view, admitted.authorization, admitted.now, endedAt);
  };

  const answerRequest: RawFastPath = (raw, response, fallback) => {
    const admitted = admit(raw);
    if (!admitted) return false;
    const { door, view, now, target } = admitted;
    // Everything is held in the common case: answered synchronously, without a promise.
    const held = heldOutcome(door, view, target, raw, now);
    // Decided once here and not kept on the request: this door writes every answer that carries it, and a request it
    // hands to Fastify below has had nothing written, so Fastify deciding its own id shows no client two ids.
    const requestId = decideRequestId(raw);
    if (held) {
      const answer = answerOf(held, raw, requestId);
      send(response, answer, requestId);
      answered(admitted, answer.status);
      return true;
    }
    // The package's versions are not held yet (or a refusal must say why): the service reads them and keeps them.
    if (door.kind !== 'metadata') return false;
    getMetadata(ctx, target, door.file, raw.headers['if-modified-since']).then(
      (outcome) => {
        const answer = answerOf(outcome, raw, requestId);
        send(response, answer, requestId);
        answered(admitted, answer.status);
      },
      // Anything else (the view changed meanwhile, an error): the routes answer it in full, with its warning.
      () => fallback(raw, response),
    );
    return true;
  };

  /**
   * The same answers read from the connection itself (http/connection-door.ts): only what is held, synchronously,
   * and only answers whose head is made once per kind; anything else, and every later request of the connection,
   * goes through node:http and answerRequest above. Nothing is counted or remembered for a request handed on.
   */
  const answerOnConnection: ConnectionAnswerer = (request, keepAliveTimeoutMs) => {
    const admitted = admit(request);
    if (!admitted) return undefined;
    const held = heldOutcome(admitted.door, admitted.view, admitted.target, request, admitted.now);
    if (!held) return undefined;
    const requestId = decideRequestId(request);
    const answer = answerOf(held, request, requestId);
    const lines = headLinesOf(answer, requestId);
    const head = lines === undefined ? undefined : connectionAnswerHead(answer.status, lines, keepAliveTimeoutMs);
    if (head === undefined) return undefined;
    answered(admitted, answer.status);
    return { head, body: answer.body };
  };

  return { answerRequest, answerOnConnection };
}
