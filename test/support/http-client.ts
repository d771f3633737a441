/** A tiny browser-like HTTP client: keeps cookies, fetches and sends the CSRF token. */
export class TestClient {
  private cookies = new Map<string, string>();
  private csrfToken?: string;

  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  hasCookie(name: string): boolean {
    return this.cookies.has(name);
  }

  /** Puts a cookie in the jar as if the server had set it (e.g. a session created directly in the database). */
  setCookie(name: string, value: string): void {
    this.cookies.set(name, value);
  }

  private storeCookies(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const separator = pair!.indexOf('=');
      const name = pair!.slice(0, separator).trim();
      const value = pair!.slice(separator + 1).trim();
      const expired = /max-age=0|expires=Thu, 01 Jan 1970/i.test(header);
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(
    method: string,
    pathname: string,
    options: { body?: unknown; headers?: Record<string, string>; csrf?: boolean } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size > 0) headers.cookie = this.cookieHeader();
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.csrf !== false && !['GET', 'HEAD', 'OPTIONS'].includes(method)) {
      headers['x-csrf-token'] ??= await this.getCsrfToken();
    }
    const response = await fetch(new URL(pathname, this.baseUrl), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      redirect: 'manual',
    });
    this.storeCookies(response);
    return response;
  }

  async getCsrfToken(): Promise<string> {
    const response = await fetch(new URL('/api/csrf-token', this.baseUrl), {
      headers: { cookie: this.cookieHeader() },
    });
    this.storeCookies(response);
    this.csrfToken = ((await response.json()) as { csrfToken: string }).csrfToken;
    return this.csrfToken;
  }

  get(pathname: string, headers?: Record<string, string>) {
    return this.request('GET', pathname, { headers });
  }
  post(pathname: string, body?: unknown, options: { headers?: Record<string, string>; csrf?: boolean } = {}) {
    return this.request('POST', pathname, { body, ...options });
  }
  put(pathname: string, body?: unknown) {
    return this.request('PUT', pathname, { body });
  }
  delete(pathname: string) {
    return this.request('DELETE', pathname);
  }

  /** Follows a chain of redirects across servers (the app and a fake), like a browser would. */
  async follow(url: string, maxHops = 10): Promise<Response> {
    let current = new URL(url, this.baseUrl);
    for (let hop = 0; hop < maxHops; hop++) {
      const sameOrigin = current.origin === new URL(this.baseUrl).origin;
      const response = await fetch(current, {
        headers: sameOrigin && this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {},
        redirect: 'manual',
      });
      if (sameOrigin) this.storeCookies(response);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response;
      current = new URL(location, current);
    }
    throw new Error(`Too many redirects from ${url}`);
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the envelopes of many endpoints, read field by field
export type ApiV1Answer = { status: number; body: any };

/** A request as an API v1 client sends it: the token as bearer, the body as JSON. Answers the status and JSON body. */
export async function callApiV1(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<ApiV1Answer> {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}
