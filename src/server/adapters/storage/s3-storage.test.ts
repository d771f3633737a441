import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../../../../test/fakes/s3.js';
import { createStorage } from './create-storage.js';
import { StorageError } from './object-storage.js';
import { S3Storage } from './s3-storage.js';

// Against a real S3-compatible server on loopback (s3rver, test/fakes/s3.ts): signed requests, multipart
// uploads through @aws-sdk/lib-storage, streaming downloads, listing pages and batch deletes.

let s3server: FakeS3;

beforeAll(async () => {
  s3server = await startFakeS3();
});

afterAll(async () => {
  await s3server?.close();
});

function s3(bucket?: string): S3Storage {
  return new S3Storage({
    bucket: bucket ?? s3server.bucket,
    region: s3server.region,
    endpoint: s3server.endpoint,
    accessKeyId: s3server.accessKeyId,
    secretAccessKey: s3server.secretAccessKey,
    forcePathStyle: true,
  });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A store whose client records the name of every command it sends. */
function countingS3(): { storage: S3Storage; sent: string[]; client: S3Client } {
  const sent: string[] = [];
  const client = new S3Client({
    region: s3server.region,
    endpoint: s3server.endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: s3server.accessKeyId, secretAccessKey: s3server.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  client.middlewareStack.add(
    (next, context) => (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize' },
  );
  return { storage: new S3Storage({ bucket: s3server.bucket, region: s3server.region }, client), sent, client };
}

/** Runs `work` on every item, `limit` at a time. */
async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
}

beforeEach(async () => {
  // Each test starts from an empty bucket.
  await s3()
    .deletePrefix('dists/')
    .catch(() => 0);
  await s3()
    .deletePrefix('logos/')
    .catch(() => 0);
});

describe('S3Storage', () => {
  it('puts a buffer and a stream, and gets them back with size and content type', async () => {
    const storage = s3();
    await storage.put('dists/42/1.0.0.0-abc.zip', Buffer.from('zip bytes'), { contentType: 'application/zip' });
    await storage.put('logos/7.svg', Readable.from([Buffer.from('<svg/>')]), { contentType: 'image/svg+xml' });

    const zip = await storage.get('dists/42/1.0.0.0-abc.zip');
    expect(zip).toMatchObject({ size: 9, contentType: 'application/zip' });
    expect((await readAll(zip!.stream)).toString('utf8')).toBe('zip bytes');
    expect(await storage.head('logos/7.svg')).toMatchObject({ size: 6, contentType: 'image/svg+xml' });
    const body = await storage.openBody('dists/42/1.0.0.0-abc.zip');
    expect(body?.size).toBe(9);
    expect(body?.content).toBeInstanceOf(Readable); // from S3 the bytes stream, whatever their size
    expect((await readAll(body!.content as Readable)).toString('utf8')).toBe('zip bytes');
  });

  it('uploads a stream larger than one part in several parts, streams it back byte for byte, and deletes it', async () => {
    const { storage, sent, client } = countingS3();
    // lib-storage's parts are 5 MB (S3's minimum); 12 MB arriving in 1 MB chunks of unknown total length
    // makes three parts.
    const chunks = Array.from({ length: 12 }, () => randomBytes(1024 * 1024));
    const whole = Buffer.concat(chunks);
    await storage.put('dists/big/large.zip', Readable.from(chunks), { contentType: 'application/zip' });
    expect(sent).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);

    expect(await storage.head('dists/big/large.zip')).toMatchObject({
      size: whole.length,
      contentType: 'application/zip',
    });
    const object = await storage.get('dists/big/large.zip');
    expect(object?.size).toBe(whole.length);
    const hash = createHash('sha256');
    let received = 0;
    let pieces = 0;
    for await (const chunk of object!.stream) {
      hash.update(chunk as Buffer);
      received += (chunk as Buffer).length;
      pieces++;
    }
    expect(received).toBe(whole.length);
    expect(pieces).toBeGreaterThan(1); // streamed, not handed over as one buffer
    expect(hash.digest('hex')).toBe(createHash('sha256').update(whole).digest('hex'));

    await storage.delete('dists/big/large.zip');
    expect(await storage.head('dists/big/large.zip')).toBeUndefined();
    expect(await storage.totalSize('dists/big/')).toBe(0);
    client.destroy();
  });

  it('answers undefined for a missing object and deletes idempotently', async () => {
    const storage = s3();
    expect(await storage.get('dists/missing.zip')).toBeUndefined();
    expect(await storage.openBody('dists/missing.zip')).toBeUndefined();
    expect(await storage.head('dists/missing.zip')).toBeUndefined();

    await storage.put('dists/a.zip', Buffer.from('a'), { contentType: 'application/zip' });
    await storage.delete('dists/a.zip');
    await storage.delete('dists/a.zip');
    expect(await storage.head('dists/a.zip')).toBeUndefined();
  });

  it('fails loudly when the bucket does not exist instead of reporting a missing object', async () => {
    await expect(s3('no-such-bucket').get('dists/a.zip')).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('sums sizes and deletes by prefix', async () => {
    const storage = s3();
    for (const key of ['dists/4/a.zip', 'dists/42/a.zip', 'dists/42/b.zip', 'dists/42/c/d.zip', 'dists/42/e.zip']) {
      await storage.put(key, Buffer.from(key), { contentType: 'application/zip' });
    }
    await storage.put('logos/1.png', Buffer.alloc(30), { contentType: 'image/png' });

    expect(await storage.totalSize('dists/42/')).toBe(
      ['dists/42/a.zip', 'dists/42/b.zip', 'dists/42/c/d.zip', 'dists/42/e.zip'].join('').length,
    );
    expect(await storage.deletePrefix('dists/42/')).toBe(4);
    expect(await storage.head('dists/42/a.zip')).toBeUndefined();
    expect(await storage.head('dists/4/a.zip')).toMatchObject({ size: 'dists/4/a.zip'.length });
    expect(await storage.totalSize()).toBe('dists/4/a.zip'.length + 30);
  });

  it('lists and deletes across listing pages (S3 answers 1000 keys a page)', { timeout: 120_000 }, async () => {
    const storage = s3();
    const keys = Array.from({ length: 1003 }, (_, index) => `dists/many/${String(index).padStart(4, '0')}.zip`);
    await eachLimited(keys, 16, (key) => storage.put(key, Buffer.from('z'), { contentType: 'application/zip' }));

    expect(await storage.totalSize('dists/many/')).toBe(1003);
    expect(await storage.deletePrefix('dists/many/')).toBe(1003);
    expect(await storage.totalSize('dists/many/')).toBe(0);
  });

  it('validates keys and prefixes exactly as the file store does, before any request', async () => {
    const { storage, sent, client } = countingS3();
    for (const key of ['../x', 'a/../b', '/abs', '.meta/x', 'a//b']) {
      await expect(storage.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toBeInstanceOf(
        StorageError,
      );
      await expect(storage.get(key)).rejects.toBeInstanceOf(StorageError);
    }
    await expect(storage.deletePrefix('')).rejects.toBeInstanceOf(StorageError);
    await expect(storage.totalSize('../')).rejects.toBeInstanceOf(StorageError);
    expect(sent).toEqual([]);
    // The counting client does reach the server once a key is valid.
    await storage.head('dists/valid.zip');
    expect(sent).toEqual(['HeadObjectCommand']);
    client.destroy();
  });
});

describe('createStorage', () => {
  it('makes an S3 store for the s3 kind', () => {
    expect(
      createStorage({ kind: 's3', bucket: s3server.bucket, region: 'us-east-1', endpoint: s3server.endpoint }),
    ).toBeInstanceOf(S3Storage);
  });
});
