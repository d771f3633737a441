import type { QueryFunctionContext } from '@tanstack/react-query';
import { isCsrfRefusal, networkError, toApiRequestError } from './api-error';
import { type CsrfTokenCache, createCsrfTokenCache } from './csrf-token-cache';

export type HttpMethod = 'GET' | 'HEAD' | 'OPTIONS' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const SAFE_METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'OPTIONS']);
export const CSRF_HEADER = 'X-CSRF-Token';
export const CSRF_TOKEN_PATH = '/api/csrf-token';

export type ApiClient = {
  /** Sends a request and returns the parsed JSON answer (undefined for an empty one); throws ApiRequestError. */
  request<T>(method: HttpMethod, url: string, body?: unknown): Promise<T>;
  /** Default query function: GET on the first element of the query key. */
  getJson<T>(context: Pick<QueryFunctionContext, 'queryKey'>): Promise<T>;
  csrf: CsrfTokenCache;
};

type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Every call carries credentials; every state-changing one carries X-CSRF-Token (spec seller-app §7).
 * A refusal with the code CSRF_INVALID (a stale token) drops the cached token and retries once with a fresh one.
 */
export function createApiClient(options: { fetch?: FetchLike; csrf?: CsrfTokenCache } = {}): ApiClient {
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => fetch(input, init));
  const csrf =
    options.csrf ??
    createCsrfTokenCache({
      fetchToken: async () => {
        const response = await fetchImpl(CSRF_TOKEN_PATH, { credentials: 'include' });
        if (!response.ok) throw new Error(`GET ${CSRF_TOKEN_PATH} answered ${response.status}`);
        const { csrfToken } = (await response.json()) as { csrfToken?: unknown };
        if (typeof csrfToken !== 'string' || !csrfToken) throw new Error('The CSRF answer holds no token');
        return csrfToken;
      },
    });

  async function send(method: HttpMethod, url: string, body: unknown): Promise<Response> {
    const headers: Record<string, string> = {};
    const init: RequestInit = { method, credentials: 'include', headers };
    if (body instanceof FormData) {
      // The browser sets multipart/form-data with its boundary itself.
      init.body = body;
    } else if (body !== undefined) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    if (!SAFE_METHODS.has(method)) {
      const token = await csrf.get();
      if (token) headers[CSRF_HEADER] = token;
    }
    try {
      return await fetchImpl(url, init);
    } catch (error) {
      throw networkError(error);
    }
  }

  async function request<T>(method: HttpMethod, url: string, body?: unknown): Promise<T> {
    let response = await send(method, url, body);
    let text = await response.text();
    if (!response.ok && !SAFE_METHODS.has(method) && isCsrfRefusal(toApiRequestError(response.status, text))) {
      csrf.invalidate();
      response = await send(method, url, body);
      text = await response.text();
    }
    if (!response.ok) throw toApiRequestError(response.status, text, response.headers.get('Retry-After'));
    if (!text) return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      return text as T;
    }
  }

  return {
    request,
    getJson: <T>({ queryKey }: Pick<QueryFunctionContext, 'queryKey'>) => request<T>('GET', String(queryKey[0])),
    csrf,
  };
}

export const apiClient = createApiClient();
export const apiRequest = apiClient.request;
export const getJson = apiClient.getJson;
