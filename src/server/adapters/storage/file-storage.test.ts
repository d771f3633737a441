import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { descriptorsBackTo, openDescriptorCount } from '../../../../test/support/descriptors.js';
import { createTempDir, removeTempDir } from '../../../../test/support/git-fixtures.js';
import { receiveOpenFile } from '../../../../test/support/open-file.js';
import { storageDirFor } from '../../config.js';
import { createStorage } from './create-storage.js';
import { OpenFile } from './file-sender.js';
import { FileStorage } from './file-storage.js';
import { discardBody, type ObjectBody, StorageError } from './object-storage.js';

let dataDir: string;
let storage: FileStorage;

beforeEach(async () => {
  dataDir = await createTempDir('packgate-storage-');
  storage = new FileStorage(storageDirFor(dataDir));
});

afterEach(async () => {
  await removeTempDir(dataDir);
});

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function contentOf(body: ObjectBody): Promise<Buffer> {
  if (Buffer.isBuffer(body.content)) return body.content;
  if (body.content instanceof OpenFile) return receiveOpenFile(body.content, body.size);
  return readAll(body.content);
}

describe('FileStorage', () => {
  it('stores a buffer under DATA_DIR/storage at the key path and reads it back with its content type', async () => {
    await storage.put('dists/42/1.0.0.0-abc.zip', Buffer.from('zip bytes'), { contentType: 'application/zip' });

    expect(await readFile(path.join(dataDir, 'storage', 'dists', '42', '1.0.0.0-abc.zip'), 'utf8')).toBe('zip bytes');
    const object = await storage.get('dists/42/1.0.0.0-abc.zip');
    expect(object).toMatchObject({ size: 9, contentType: 'application/zip' });
    expect(object?.lastModified).toBeInstanceOf(Date);
    expect((await readAll(object!.stream)).toString()).toBe('zip bytes');
    expect(await storage.head('dists/42/1.0.0.0-abc.zip')).toMatchObject({ size: 9, contentType: 'application/zip' });
  });

  it('opens the bytes alone without reading the content-type record, which may even be gone', async () => {
    await storage.put('dists/42/1.0.0.0-abc.zip', Buffer.from('zip bytes'), { contentType: 'application/zip' });
    await rm(path.join(dataDir, 'storage', '.meta'), { recursive: true });

    const body = await storage.openBody('dists/42/1.0.0.0-abc.zip');
    expect(body?.size).toBe(9);
    expect((await contentOf(body!)).toString()).toBe('zip bytes');
    expect(await storage.openBody('dists/42/missing.zip')).toBeUndefined();
    expect(await storage.openBody('dists/42')).toBeUndefined();
  });

  it('opens a small object read whole and a large one as its open file, sent byte for byte', async () => {
    const small = randomBytes(96 * 1024);
    const large = randomBytes(96 * 1024 + 1);
    await storage.put('dists/small.zip', small, { contentType: 'application/zip' });
    await storage.put('dists/large.zip', large, { contentType: 'application/zip' });

    const smallBody = await storage.openBody('dists/small.zip');
    expect(Buffer.isBuffer(smallBody?.content)).toBe(true);
    expect(smallBody).toMatchObject({ size: small.length });
    expect((smallBody!.content as Buffer).equals(small)).toBe(true);
    const largeBody = await storage.openBody('dists/large.zip');
    expect(largeBody?.content).toBeInstanceOf(OpenFile);
    expect(largeBody).toMatchObject({ size: large.length });
    expect((await contentOf(largeBody!)).equals(large)).toBe(true);
  });

  it('closes what it opens: many small and discarded bodies leave no file descriptor open', async () => {
    await storage.put('dists/small.zip', Buffer.from('zip bytes'), { contentType: 'application/zip' });
    await storage.put('dists/large.zip', randomBytes(200 * 1024), { contentType: 'application/zip' });
    const openBefore = await openDescriptorCount();

    for (let round = 0; round < 100; round++) {
      await storage.openBody('dists/small.zip');
      const large = await storage.openBody('dists/large.zip');
      discardBody(large!);
      await storage.openBody('dists/missing.zip');
    }

    // Closing is not awaited by openBody (the answer does not wait for it): wait, with a bound, for the count to fall.
    await descriptorsBackTo(openBefore);
  });

  it('stores a stream', async () => {
    const parts = [Buffer.from('part one, '), Buffer.from('part two')];
    await storage.put('logos/7.svg', Readable.from(parts), { contentType: 'image/svg+xml' });

    const object = await storage.get('logos/7.svg');
    expect(object?.size).toBe(18);
    expect((await readAll(object!.stream)).toString()).toBe('part one, part two');
  });

  it('replaces an object whole, leaving no temporary files behind', async () => {
    await storage.put('logos/7.png', Buffer.alloc(1000, 1), { contentType: 'image/png' });
    await storage.put('logos/7.png', Buffer.from('small'), { contentType: 'image/webp' });

    expect(await storage.head('logos/7.png')).toMatchObject({ size: 5, contentType: 'image/webp' });
    expect(await readdir(path.join(storage.root, '.tmp'))).toEqual([]);
  });

  it('keeps the previous object when a streamed put fails part way', async () => {
    await storage.put('dists/1.zip', Buffer.from('old'), { contentType: 'application/zip' });
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('source broke'));
      },
    });

    await expect(storage.put('dists/1.zip', failing, { contentType: 'application/zip' })).rejects.toThrow(
      'source broke',
    );
    expect((await readAll((await storage.get('dists/1.zip'))!.stream)).toString()).toBe('old');
    expect(await readdir(path.join(storage.root, '.tmp'))).toEqual([]);
  });

  it('answers undefined for a missing object, and for a key naming a folder of other keys', async () => {
    await storage.put('dists/42/a.zip', Buffer.from('a'), { contentType: 'application/zip' });

    expect(await storage.get('dists/42/missing.zip')).toBeUndefined();
    expect(await storage.head('dists/42/missing.zip')).toBeUndefined();
    expect(await storage.get('dists/42')).toBeUndefined();
    expect(await storage.head('dists/42/a.zip/deeper')).toBeUndefined();
  });

  it('deletes an object and the folders it leaves empty; deleting again is fine', async () => {
    await storage.put('dists/42/a.zip', Buffer.from('a'), { contentType: 'application/zip' });
    await storage.put('dists/43/b.zip', Buffer.from('b'), { contentType: 'application/zip' });

    await storage.delete('dists/42/a.zip');
    await storage.delete('dists/42/a.zip');

    expect(await storage.get('dists/42/a.zip')).toBeUndefined();
    expect(existsSync(path.join(storage.root, 'dists', '42'))).toBe(false);
    expect(existsSync(path.join(storage.root, '.meta', 'dists', '42'))).toBe(false);
    expect(await storage.head('dists/43/b.zip')).toBeDefined();
  });

  it('deletes by prefix, including a prefix that ends inside a name, and counts what it deleted', async () => {
    for (const key of ['dists/4/a.zip', 'dists/42/a.zip', 'dists/42/b/c.zip', 'dists/5/a.zip', 'logos/1.png']) {
      await storage.put(key, Buffer.from(key), { contentType: 'application/octet-stream' });
    }

    expect(await storage.deletePrefix('dists/42/')).toBe(2);
    expect(await storage.head('dists/4/a.zip')).toBeDefined();
    expect(await storage.deletePrefix('dists/4')).toBe(1);
    expect(await storage.deletePrefix('nothing/')).toBe(0);
    expect(await storage.totalSize()).toBe('dists/5/a.zip'.length + 'logos/1.png'.length);
    await expect(storage.deletePrefix('')).rejects.toBeInstanceOf(StorageError);
  });

  it('sums object sizes, for everything or a prefix, without counting content-type records', async () => {
    expect(await storage.totalSize()).toBe(0);
    await storage.put('dists/1/a.zip', Buffer.alloc(100), { contentType: 'application/zip' });
    await storage.put('dists/2/b.zip', Buffer.alloc(250), { contentType: 'application/zip' });
    await storage.put('logos/1.png', Buffer.alloc(30), { contentType: 'image/png' });

    expect(await storage.totalSize()).toBe(380);
    expect(await storage.totalSize('dists/')).toBe(350);
    expect(await storage.totalSize('dists/2')).toBe(250);
    expect(await storage.totalSize('logos/1.png')).toBe(30);
  });

  it('refuses keys that could escape the storage folder or collide with its own folders', async () => {
    const outside = path.join(dataDir, 'outside.txt');
    await writeFile(outside, 'secret');
    const badKeys = [
      '../outside.txt',
      'dists/../../outside.txt',
      '/etc/passwd',
      'a//b',
      'a/./b',
      '.meta/x',
      '.tmp/x',
      'a\\..\\b',
      'trailing/',
      '',
      'nul\0byte',
      'x'.repeat(1025),
    ];
    for (const key of badKeys) {
      await expect(storage.put(key, Buffer.from('x'), { contentType: 'text/plain' })).rejects.toMatchObject({
        code: 'INVALID_KEY',
      });
      await expect(storage.get(key)).rejects.toBeInstanceOf(StorageError);
      await expect(storage.head(key)).rejects.toBeInstanceOf(StorageError);
      await expect(storage.delete(key)).rejects.toBeInstanceOf(StorageError);
    }
    for (const prefix of ['../', '..', 'dists/../', '/']) {
      await expect(storage.deletePrefix(prefix)).rejects.toBeInstanceOf(StorageError);
      await expect(storage.totalSize(prefix)).rejects.toBeInstanceOf(StorageError);
    }
    expect(await readFile(outside, 'utf8')).toBe('secret');
  });

  it('reports a key that clashes with a folder of other keys', async () => {
    await storage.put('a/b', Buffer.from('x'), { contentType: 'text/plain' });

    await expect(storage.put('a', Buffer.from('y'), { contentType: 'text/plain' })).rejects.toMatchObject({
      code: 'KEY_CONFLICT',
    });
    await expect(storage.put('a/b/c', Buffer.from('y'), { contentType: 'text/plain' })).rejects.toMatchObject({
      code: 'KEY_CONFLICT',
    });
  });

  it('survives concurrent writes of one key with one complete object', async () => {
    const bodies = Array.from({ length: 8 }, (_, index) => Buffer.alloc(10_000 + index, index));
    await Promise.all(bodies.map((body) => storage.put('dists/race.zip', body, { contentType: 'application/zip' })));

    const stored = await readAll((await storage.get('dists/race.zip'))!.stream);
    expect(bodies.some((body) => body.equals(stored))).toBe(true);
  });
});

describe('createStorage', () => {
  it('makes a file store for the files kind', async () => {
    const files = createStorage({ kind: 'files', dir: path.join(dataDir, 'elsewhere') });
    await files.put('k', Buffer.from('v'), { contentType: 'text/plain' });
    expect(await readFile(path.join(dataDir, 'elsewhere', 'k'), 'utf8')).toBe('v');
  });
});
