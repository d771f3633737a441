import { describe, expect, it } from 'vitest';
import { readPlainGetHead } from './plain-get-head.js';

const head = (...lines: string[]) => lines.join('\r\n');

describe('readPlainGetHead', () => {
  it('reads a keep-alive GET with its headers, names lower-cased and values trimmed', () => {
    const read = readPlainGetHead(
      head(
        'GET /p2/acme/widget.json HTTP/1.1',
        'Host: repo.example.com',
        'Authorization:  Bearer pg_abc ',
        'If-Modified-Since: Tue, 01 Dec 2026 10:00:00 GMT',
        'Connection: Keep-Alive',
      ),
    );
    expect(read?.url).toBe('/p2/acme/widget.json');
    expect({ ...read?.headers }).toEqual({
      host: 'repo.example.com',
      authorization: 'Bearer pg_abc',
      'if-modified-since': 'Tue, 01 Dec 2026 10:00:00 GMT',
      connection: 'Keep-Alive',
    });
  });

  it('reads a request without headers', () => {
    expect(readPlainGetHead('GET /packages.json HTTP/1.1')).toEqual({ url: '/packages.json', headers: {} });
  });

  it.each([
    ['another method', head('POST /p2/a/b.json HTTP/1.1', 'Host: x')],
    ['HEAD', head('HEAD /p2/a/b.json HTTP/1.1', 'Host: x')],
    ['HTTP/1.0', head('GET /p2/a/b.json HTTP/1.0', 'Host: x')],
    ['an absolute target', head('GET http://x/p2/a/b.json HTTP/1.1', 'Host: x')],
    ['a space in the target', head('GET /p2/a b.json HTTP/1.1', 'Host: x')],
    ['a non-ASCII target', head('GET /p2/é.json HTTP/1.1', 'Host: x')],
    ['a body announced by its length', head('GET /p2/a/b.json HTTP/1.1', 'Content-Length: 0')],
    ['a chunked body', head('GET /p2/a/b.json HTTP/1.1', 'Transfer-Encoding: chunked')],
    ['an upgrade', head('GET /p2/a/b.json HTTP/1.1', 'Upgrade: websocket')],
    ['a 100-continue', head('GET /p2/a/b.json HTTP/1.1', 'Expect: 100-continue')],
    ['a connection that closes', head('GET /p2/a/b.json HTTP/1.1', 'Connection: close')],
    ['a header written twice', head('GET /p2/a/b.json HTTP/1.1', 'Authorization: Bearer a', 'authorization: Bearer b')],
    ['a folded line', head('GET /p2/a/b.json HTTP/1.1', 'Authorization: Bearer', ' pg_abc')],
    ['a line without a colon', head('GET /p2/a/b.json HTTP/1.1', 'Authorization Bearer pg_abc')],
    ['whitespace before the colon', head('GET /p2/a/b.json HTTP/1.1', 'Authorization : Bearer pg_abc')],
    ['a name with a separator', head('GET /p2/a/b.json HTTP/1.1', 'Auth(x): y')],
    ['a bare line feed', 'GET /p2/a/b.json HTTP/1.1\r\nHost: x\nAuthorization: Bearer a'],
    ['a bare carriage return', 'GET /p2/a/b.json HTTP/1.1\r\nHost: x\rAuthorization: Bearer a'],
    ['a byte above ASCII in a value', head('GET /p2/a/b.json HTTP/1.1', 'X-Name: caf\u00e9')],
    ['a control character in a value', head('GET /p2/a/b.json HTTP/1.1', 'X-Name: a\u0000b')],
  ])('leaves %s to node:http', (_label, text) => {
    expect(readPlainGetHead(text)).toBeUndefined();
  });

  it('reads every one of two thousand headers', () => {
    const lines = Array.from({ length: 2000 }, (_, index) => `X-Header-${index}: ${'v'.repeat(3)}`);
    const read = readPlainGetHead(head('GET / HTTP/1.1', ...lines));
    expect(Object.keys(read?.headers ?? {})).toHaveLength(2000);
  });
});
