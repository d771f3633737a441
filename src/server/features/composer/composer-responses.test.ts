import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { type ErrorFacts, errorCodes } from '../../lib/app-error.js';
import {
  answerHeaders,
  answerLines,
  type ComposerAnswer,
  composerAnswer,
  headerRecord,
  httpDate,
} from './composer-responses.js';

const LAST_MODIFIED = new Date('2026-11-20T10:00:00.250Z');
const BYTES = Buffer.from('{"packages":{}}');
const BODY = { bytes: BYTES, gzipped: () => gzipSync(BYTES) };
const SECURITY = { 'x-content-type-options': 'nosniff' };

const facts = (code: 'NOT_FOUND' | 'UNAUTHENTICATED' | 'FORBIDDEN', message: string, extra = {}): ErrorFacts => ({
  code,
  ...errorCodes[code],
  message,
  ...extra,
});

/** The answer with its header list as an object: what a client reads. */
const asRead = ({ status, body, statusMessage, ...answer }: ComposerAnswer) => ({
  status,
  body,
  statusMessage,
  headers: headerRecord(answerHeaders({ status, ...answer })),
});

describe('a Composer answer', () => {
  it('sends packages.json without a validator, revalidated per token', () => {
    const answer = composerAnswer({ kind: 'packages-json', bytes: BYTES }, {}, SECURITY);
    expect(asRead(answer)).toEqual({
      status: 200,
      headers: {
        'x-content-type-options': 'nosniff',
        'content-type': 'application/json',
        'cache-control': 'private, no-cache',
        vary: 'Authorization',
      },
      body: BYTES,
    });
  });

  it('sends a p2 file plain, or gzipped when the client takes gzip, with its Last-Modified', () => {
    const metadata = { kind: 'metadata', body: BODY, lastModified: LAST_MODIFIED } as const;
    const plain = composerAnswer(metadata, { acceptEncoding: 'gzip;q=0, br' });
    expect(plain.status).toBe(200);
    expect(plain.body).toBe(BYTES);
    expect(headerRecord(answerHeaders(plain))).toEqual({
      'last-modified': 'Fri, 20 Nov 2026 10:00:00 GMT',
      'cache-control': 'private, no-cache',
      vary: 'Authorization, Accept-Encoding',
      'content-type': 'application/json',
    });
    const gzipped = composerAnswer(metadata, { acceptEncoding: 'deflate, gzip' });
    expect(headerRecord(answerHeaders(gzipped))['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.body as Buffer).equals(BYTES)).toBe(true);
  });

  it('gives each answer its own header list, each name once, whatever an earlier answer added to its own', () => {
    const metadata = { kind: 'metadata', body: BODY, lastModified: LAST_MODIFIED } as const;
    const first = composerAnswer(metadata, {}, SECURITY);
    answerHeaders(first).push('x-request-id', 'req-1');
    const second = composerAnswer(metadata, {}, SECURITY);
    const names = answerHeaders(second).filter((_, index) => index % 2 === 0);
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('x-request-id');
    expect(headerRecord(answerHeaders(second))['last-modified']).toBe('Fri, 20 Nov 2026 10:00:00 GMT');
  });

  it("holds each warm kind's headers as checked header lines, the same headers in the same order", () => {
    const metadata = composerAnswer({ kind: 'metadata', body: BODY, lastModified: LAST_MODIFIED }, {}, SECURITY);
    expect(answerLines(metadata)).toBe(
      'x-content-type-options: nosniff\r\ncache-control: private, no-cache\r\n' +
        'vary: Authorization, Accept-Encoding\r\ncontent-type: application/json\r\n' +
        'last-modified: Fri, 20 Nov 2026 10:00:00 GMT\r\n',
    );
    const packagesJson = composerAnswer({ kind: 'packages-json', bytes: BYTES }, {}, SECURITY);
    expect(answerLines(packagesJson)).toBe(
      'x-content-type-options: nosniff\r\ncontent-type: application/json\r\n' +
        'cache-control: private, no-cache\r\nvary: Authorization\r\n',
    );
    const badBase = { 'x-bad': 'line\r\nbreak' };
    expect(answerLines(composerAnswer({ kind: 'packages-json', bytes: BYTES }, {}, badBase))).toBeUndefined();
  });

  it('answers 304 with the validators and no body', () => {
    const answer = composerAnswer({ kind: 'not-modified', lastModified: LAST_MODIFIED }, {}, SECURITY);
    expect(asRead(answer)).toEqual({
      status: 304,
      headers: {
        'x-content-type-options': 'nosniff',
        'last-modified': 'Fri, 20 Nov 2026 10:00:00 GMT',
        'cache-control': 'private, no-cache',
        vary: 'Authorization, Accept-Encoding',
      },
    });
  });

  it('refuses an unlicensed p2 file with a plain 404: no warning, no status line', () => {
    const error = facts('NOT_FOUND', 'acme/tools was not found in this repository.');
    const answer = composerAnswer({ kind: 'refused', error, isQuiet: true }, { requestId: 'req-1' });
    expect(answer.status).toBe(404);
    expect(answer.statusMessage).toBeUndefined();
    expect(headerRecord(answerHeaders(answer))).toEqual({
      'content-type': 'application/json',
      'cache-control': 'no-store',
    });
    const body = JSON.parse(String(answer.body));
    expect(body.requestId).toBe('req-1');
    expect(body.warnings).toBeUndefined();
  });

  it('writes the same quiet 404 body each time, with each request its own id, in the error shape and order', () => {
    const error = facts('NOT_FOUND', 'acme/"quoted" was not found in this repository.');
    const first = composerAnswer({ kind: 'refused', error, isQuiet: true }, { requestId: 'req-1' });
    const second = composerAnswer({ kind: 'refused', error, isQuiet: true }, { requestId: 'req-2' });
    expect(first.body).toBe(
      JSON.stringify({
        error: 'Not Found',
        message: 'acme/"quoted" was not found in this repository.',
        status: 404,
        code: 'NOT_FOUND',
        requestId: 'req-1',
      }),
    );
    expect(JSON.parse(String(second.body))).toMatchObject({ requestId: 'req-2', status: 404 });
  });

  it('writes a quiet 404 body that is not ASCII as its UTF-8 bytes, so that its length counts bytes', () => {
    const error = facts('NOT_FOUND', 'acme/café was not found in this repository.');
    const answer = composerAnswer({ kind: 'refused', error, isQuiet: true }, { requestId: 'req-1' });
    expect(Buffer.isBuffer(answer.body)).toBe(true);
    const body = answer.body as Buffer;
    expect(body.length).toBe(Buffer.byteLength(body.toString()));
    expect(JSON.parse(body.toString())).toMatchObject({ message: 'acme/café was not found in this repository.' });
  });

  it('tells Composer why it is refused: a warning with the suggestion, the status line and the error headers', () => {
    const error = facts('UNAUTHENTICATED', 'This Composer repository needs the token from your license e-mail.', {
      suggestion: 'Run: composer config bearer.acme.composer.localhost <your token>',
      headers: { 'www-authenticate': 'Basic realm="Packgate"' },
    });
    const answer = composerAnswer({ kind: 'refused', error, isQuiet: false }, {});
    expect(answer.status).toBe(401);
    expect(answer.statusMessage).toBe('This Composer repository needs the token from your license e-mail.');
    expect(headerRecord(answerHeaders(answer))['www-authenticate']).toBe('Basic realm="Packgate"');
    expect(JSON.parse((answer.body as Buffer).toString()).warnings).toEqual([
      {
        message:
          'This Composer repository needs the token from your license e-mail. Run: composer config bearer.acme.composer.localhost <your token>',
        versions: '*',
      },
    ]);
    const forbidden = composerAnswer(
      { kind: 'refused', error: facts('FORBIDDEN', 'Your license ended — renew it.'), isQuiet: false },
      {},
    );
    expect(forbidden.status).toBe(403);
    expect(forbidden.statusMessage).toBe('Your license ended ? renew it.');
  });
});

describe('httpDate', () => {
  it('formats whole seconds as toUTCString does, the same text for every moment of one second', () => {
    expect(httpDate(LAST_MODIFIED)).toBe('Fri, 20 Nov 2026 10:00:00 GMT');
    expect(httpDate(new Date('2026-11-20T10:00:00.999Z'))).toBe('Fri, 20 Nov 2026 10:00:00 GMT');
    expect(httpDate(new Date('2026-11-20T10:00:01.000Z'))).toBe('Fri, 20 Nov 2026 10:00:01 GMT');
  });

  it('stays right past its bound of remembered seconds', () => {
    const start = Date.UTC(2026, 0, 1);
    for (let second = 0; second < 3_000; second++) {
      const date = new Date(start + second * 1000);
      expect(httpDate(date)).toBe(date.toUTCString());
    }
    expect(httpDate(new Date(start))).toBe(new Date(start).toUTCString());
  });
});
