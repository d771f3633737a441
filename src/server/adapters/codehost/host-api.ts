import { CodeHostError } from './code-host.js';

// The HTTP calls of the GitLab and Bitbucket adapters: a timeout on every call, no redirects (a host that redirects
// an API call elsewhere is refused, so a credential never follows it), answers read up to a bound, and the host's
// refusals as CodeHostErrors whose messages never carry the token.

const REQUEST_TIMEOUT_MS = 15_000;
/** An API answer larger than this is refused: no listing or file Packgate asks for comes near it. */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

export type HostApiRequest = {
  /** The host's name in messages: `GitLab`, `Bitbucket`. */
  host: string;
  url: string;
  method?: 'GET' | 'POST' | 'DELETE';
  /** Sent as `Authorization: Bearer`. */
  token?: string;
  json?: unknown;
  form?: Record<string, string>;
};

export type HostApiAnswer = { status: number; headers: Headers; text: string };

/** Performs the call; throws CodeHostError UNAVAILABLE when the host does not answer. Any status is returned. */
export async function callHostApi(request: HostApiRequest): Promise<HostApiAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', 'user-agent': 'Packgate' };
  if (request.token) headers.authorization = `Bearer ${request.token}`;
  let body: string | undefined;
  if (request.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(request.json);
  } else if (request.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(request.form).toString();
  }
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method ?? 'GET',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch {
    throw new CodeHostError('UNAVAILABLE', `${request.host} could not be reached.`);
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    throw new CodeHostError(
      'UNAVAILABLE',
      `${request.host} redirected an API call elsewhere; Packgate does not follow.`,
    );
  }
  return { status: response.status, headers: response.headers, text: await readBounded(request.host, response) };
}

async function readBounded(host: string, response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new CodeHostError('UNAVAILABLE', `${host} sent an answer too large to read.`);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new CodeHostError('UNAVAILABLE', `${host} sent an answer too large to read.`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The answer's JSON; UNAVAILABLE when it is not JSON. */
export function parseJson<T>(host: string, answer: HostApiAnswer): T {
  try {
    return JSON.parse(answer.text) as T;
  } catch {
    throw new CodeHostError('UNAVAILABLE', `${host} answered with something other than JSON.`);
  }
}

/**
 * The JSON of an answer that succeeded: 200, or one of the `accepted` statuses (a create's 201); any other status is
 * the host's error (hostApiError), and a body that is not JSON is UNAVAILABLE.
 */
export function okJson<T>(host: string, answer: HostApiAnswer, accepted: readonly number[] = [200]): T {
  if (!accepted.includes(answer.status)) throw hostApiError(host, answer);
  return parseJson<T>(host, answer);
}

/** A raw file's text from the host's answer; undefined when the file (or the ref) is missing (404). */
export function fileTextOf(host: string, answer: HostApiAnswer): string | undefined {
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) throw hostApiError(host, answer);
  return answer.text;
}

/** Accepts the answer to a removal: removed (200, 204) or already gone (404); anything else is the host's error. */
export function assertRemoved(host: string, answer: HostApiAnswer): void {
  if (answer.status === 200 || answer.status === 204 || answer.status === 404) return;
  throw hostApiError(host, answer);
}

/** A failed answer as a CodeHostError: 401/403 refused credentials, 404 not found, 429 rate limit, the rest unavailable. */
export function hostApiError(host: string, answer: HostApiAnswer, now: number = Date.now()): CodeHostError {
  const { status } = answer;
  if (status === 401) return new CodeHostError('UNAUTHORIZED', `${host} refused the stored credential.`);
  if (status === 403) {
    return new CodeHostError('UNAUTHORIZED', `${host} refused access: ${hostMessage(answer)}`);
  }
  if (status === 404) return new CodeHostError('NOT_FOUND', `${host} answered 404 Not Found.`);
  if (status === 429) {
    // An absent header is null, which Number() would read as 0 ("retry now").
    const header = (name: string) => Number(answer.headers.get(name) ?? Number.NaN);
    const retryAfter = header('retry-after');
    const reset = header('ratelimit-reset');
    let retryAt: Date | undefined;
    if (Number.isFinite(retryAfter) && retryAfter >= 0) retryAt = new Date(now + retryAfter * 1000);
    else if (Number.isFinite(reset) && reset > 0) retryAt = new Date(reset * 1000);
    return new CodeHostError('RATE_LIMITED', `${host} API rate limit exceeded.`, { retryAt });
  }
  if (status >= 500) return new CodeHostError('UNAVAILABLE', `${host} is not answering properly (HTTP ${status}).`);
  return new CodeHostError('UNAVAILABLE', `${host} answered HTTP ${status}: ${hostMessage(answer)}`);
}

/** The host's own explanation (GitLab `message`/`error_description`, Bitbucket `error.message`), shortened. */
function hostMessage(answer: HostApiAnswer): string {
  let message = 'no details';
  try {
    const data = JSON.parse(answer.text) as {
      message?: unknown;
      error?: unknown;
      error_description?: unknown;
    };
    const nested = (data.error as { message?: unknown } | undefined)?.message;
    const candidate = [data.message, data.error_description, nested, data.error].find(
      (value) => typeof value === 'string' && value.trim() !== '',
    );
    if (typeof candidate === 'string') message = candidate;
  } catch {
    // no JSON: no details
  }
  return message.length > 200 ? `${message.slice(0, 197)}...` : message;
}

/** The URL without trailing slashes (a loop: `/\/+$/` backtracks on long runs of slashes). */
export function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--;
  return url.slice(0, end);
}
