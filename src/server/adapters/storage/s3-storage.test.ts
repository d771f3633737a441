import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createStorage } from './create-storage.js';
import { StorageError } from './object-storage.js';
import { S3Storage } from './s3-storage.js';

// A small S3 stand-in following the public REST API in path style (PUT/GET/HEAD/DELETE object,
// ListObjectsV2, DeleteObjects), listing two keys a page so that pagination is exercised.

type FakeObject = { body: Buffer; contentType: string; lastModified: Date };

const BUCKET = 'packgate-test';
const PAGE_SIZE = 2;
const objects = new Map<string, FakeObject>();
const requests: string[] = [];
let server: Server;
let endpoint: string;

const xmlEscape = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const xmlUnescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function s3Error(status: number, code: string): { status: number; body: string } {
  return {
    status,
    body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
  };
}

beforeAll(async () => {
  server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const [, bucket, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const body = await bodyOf(request);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    const send = (status: number, payload: string | Buffer = '', headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/xml', ...headers }).end(payload);
    };
    if (bucket !== BUCKET) {
      const error = s3Error(404, 'NoSuchBucket');
      return send(error.status, error.body);
    }
    if (key === '' && request.method === 'GET' && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const after = url.searchParams.get('continuation-token') ?? '';
      const keys = [...objects.keys()].filter((candidate) => candidate.startsWith(prefix) && candidate > after).sort();
      const page = keys.slice(0, PAGE_SIZE);
      const truncated = keys.length > PAGE_SIZE;
      const contents = page
        .map((name) => {
          const object = objects.get(name)!;
          return `<Contents><Key>${xmlEscape(name)}</Key><Size>${object.body.length}</Size><LastModified>${object.lastModified.toISOString()}</LastModified><ETag>"x"</ETag><StorageClass>STANDARD</StorageClass></Contents>`;
        })
        .join('');
      const next = truncated ? `<NextContinuationToken>${xmlEscape(page.at(-1)!)}</NextContinuationToken>` : '';
      return send(
        200,
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${BUCKET}</Name><Prefix>${xmlEscape(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${PAGE_SIZE}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`,
      );
    }
    if (key === '' && request.method === 'POST' && url.searchParams.has('delete')) {
      const keys = [...body.toString('utf8').matchAll(/<Key>(.*?)<\/Key>/g)].map((match) => xmlUnescape(match[1]!));
      for (const name of keys) objects.delete(name);
      return send(200, '<?xml version="1.0" encoding="UTF-8"?><DeleteResult></DeleteResult>');
    }
    const object = objects.get(key);
    switch (request.method) {
      case 'PUT':
        objects.set(key, {
          body,
          contentType: request.headers['content-type'] ?? 'binary/octet-stream',
          lastModified: new Date(Math.floor(Date.now() / 1000) * 1000),
        });
        return send(200, '', { etag: '"x"' });
      case 'GET':
      case 'HEAD': {
        if (!object) {
          const error = s3Error(404, 'NoSuchKey');
          return send(404, request.method === 'HEAD' ? '' : error.body);
        }
        const headers = {
          'content-type': object.contentType,
          'content-length': String(object.body.length),
          'last-modified': object.lastModified.toUTCString(),
          etag: '"x"',
        };
        response.writeHead(200, headers).end(request.method === 'HEAD' ? undefined : object.body);
        return;
      }
      case 'DELETE':
        objects.delete(key);
        return send(204);
      default:
        return send(405);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  objects.clear();
  requests.length = 0;
});

function s3(bucket = BUCKET): S3Storage {
  return new S3Storage({
    bucket,
    region: 'us-east-1',
    endpoint,
    accessKeyId: 'test-access-key',
    secretAccessKey: 'test-secret-key',
    forcePathStyle: true,
  });
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('S3Storage', () => {
  it('puts a buffer and a stream, and gets them back with size and content type', async () => {
    const storage = s3();
    await storage.put('dists/42/1.0.0.0-abc.zip', Buffer.from('zip bytes'), { contentType: 'application/zip' });
    await storage.put('logos/7.svg', Readable.from([Buffer.from('<svg/>')]), { contentType: 'image/svg+xml' });

    expect(requests.some((line) => line.startsWith('PUT /packgate-test/dists/42/1.0.0.0-abc.zip'))).toBe(true);
    const zip = await storage.get('dists/42/1.0.0.0-abc.zip');
    expect(zip).toMatchObject({ size: 9, contentType: 'application/zip' });
    expect(await readAll(zip!.stream)).toBe('zip bytes');
    expect(await storage.head('logos/7.svg')).toMatchObject({ size: 6, contentType: 'image/svg+xml' });
  });

  it('answers undefined for a missing object and deletes idempotently', async () => {
    const storage = s3();
    expect(await storage.get('dists/missing.zip')).toBeUndefined();
    expect(await storage.head('dists/missing.zip')).toBeUndefined();

    await storage.put('dists/a.zip', Buffer.from('a'), { contentType: 'application/zip' });
    await storage.delete('dists/a.zip');
    await storage.delete('dists/a.zip');
    expect(await storage.head('dists/a.zip')).toBeUndefined();
  });

  it('fails loudly when the bucket does not exist instead of reporting a missing object', async () => {
    await expect(s3('no-such-bucket').get('dists/a.zip')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('sums sizes and deletes by prefix across listing pages', async () => {
    const storage = s3();
    for (const key of ['dists/4/a.zip', 'dists/42/a.zip', 'dists/42/b.zip', 'dists/42/c/d.zip', 'dists/42/e.zip']) {
      await storage.put(key, Buffer.from(key), { contentType: 'application/zip' });
    }
    await storage.put('logos/1.png', Buffer.alloc(30), { contentType: 'image/png' });

    expect(await storage.totalSize('dists/42/')).toBe(
      ['dists/42/a.zip', 'dists/42/b.zip', 'dists/42/c/d.zip', 'dists/42/e.zip'].join('').length,
    );
    expect(await storage.deletePrefix('dists/42/')).toBe(4);
    expect([...objects.keys()].sort()).toEqual(['dists/4/a.zip', 'logos/1.png']);
    expect(await storage.totalSize()).toBe('dists/4/a.zip'.length + 30);
  });

  it('validates keys and prefixes exactly as the file store does, before any request', async () => {
    const storage = s3();
    for (const key of ['../x', 'a/../b', '/abs', '.meta/x', 'a//b']) {
      await expect(storage.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toBeInstanceOf(
        StorageError,
      );
      await expect(storage.get(key)).rejects.toBeInstanceOf(StorageError);
    }
    await expect(storage.deletePrefix('')).rejects.toBeInstanceOf(StorageError);
    await expect(storage.totalSize('../')).rejects.toBeInstanceOf(StorageError);
    expect(requests).toEqual([]);
  });
});

describe('createStorage', () => {
  it('makes an S3 store for the s3 kind', () => {
    expect(createStorage({ kind: 's3', bucket: BUCKET, region: 'us-east-1', endpoint })).toBeInstanceOf(S3Storage);
  });
});
