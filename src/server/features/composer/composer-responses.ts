// What the Composer doors send with a successful answer, shared by the routes (composer.routes.ts) and the warm fast
// path (composer-fast-path.ts) so that both answer with the same bytes and headers.

// Composer prints `warnings` from a JSON error body only when Content-Type is exactly application/json
// (CurlDownloader, HttpDownloader::outputWarnings). Fastify appends a charset to a JSON type whenever the payload
// is a string, so bodies go out as Buffers of serialized JSON.
export const JSON_TYPE = 'application/json';

export function jsonBytes(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

/** packages.json has no Last-Modified: the answer depends on the clock (warnings, expiries), so Composer asks anew. */
export const PACKAGES_JSON_HEADERS = {
  'content-type': JSON_TYPE,
  'cache-control': 'private, no-cache',
  vary: 'Authorization',
} as const;

/** A p2 file's validators, on its 200 and its 304. */
export function metadataHeaders(lastModified: Date): Record<string, string> {
  return {
    'last-modified': lastModified.toUTCString(),
    'cache-control': 'private, no-cache',
    vary: 'Authorization, Accept-Encoding',
  };
}

/** Whether the client takes gzip: named in Accept-Encoding and not refused with q=0. */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (
    acceptEncoding !== undefined &&
    /\bgzip\b/i.test(acceptEncoding) &&
    !/\bgzip\s*;\s*q=0(?:\.0*)?\b/i.test(acceptEncoding)
  );
}
