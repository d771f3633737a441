import { randomBytes } from 'node:crypto';
import { openSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { descriptorsBackTo, openDescriptorCount } from '../../../../test/support/descriptors.js';
import { createTempDir, removeTempDir } from '../../../../test/support/git-fixtures.js';
import { receiveOpenFile } from '../../../../test/support/open-file.js';
import { OpenFile, SEND_CHUNK_BYTES } from './file-sender.js';

let dir: string;

beforeEach(async () => {
  dir = await createTempDir('packgate-file-sender-');
});

afterEach(async () => {
  await removeTempDir(dir);
});

/** A file of random bytes, opened for reading. */
async function openedFile(name: string, size: number): Promise<{ bytes: Buffer; file: OpenFile }> {
  const bytes = randomBytes(size);
  const target = path.join(dir, name);
  await writeFile(target, bytes);
  return { bytes, file: new OpenFile(openSync(target, 'r')) };
}

describe('sendOpenFile', () => {
  it('sends a file of several chunks and a part byte for byte, and closes it', async () => {
    const before = await openDescriptorCount();
    const { bytes, file } = await openedFile('large.zip', 3 * SEND_CHUNK_BYTES + 12_345);
    expect((await receiveOpenFile(file, bytes.length)).equals(bytes)).toBe(true);
    await descriptorsBackTo(before);
  });

  it('keeps concurrent downloads apart while their chunks are reused', async () => {
    const files = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((index) => openedFile(`file-${index}.zip`, index * SEND_CHUNK_BYTES + index)),
    );
    for (let round = 0; round < 2; round++) {
      const again = round === 0 ? files : await Promise.all(files.map((_, index) => reopen(files, index)));
      const received = await Promise.all(again.map(({ bytes, file }) => receiveOpenFile(file, bytes.length)));
      received.forEach((got, index) => {
        expect(got.equals(again[index]!.bytes)).toBe(true);
      });
    }
  });

  it('stops reading and closes the file when the client goes away mid-download', async () => {
    const before = await openDescriptorCount();
    const { bytes, file } = await openedFile('abandoned.zip', 40 * SEND_CHUNK_BYTES);
    const received = await receiveOpenFile(file, bytes.length, SEND_CHUNK_BYTES);
    expect(received.length).toBeLessThan(bytes.length);
    expect(received.equals(bytes.subarray(0, received.length))).toBe(true);
    await descriptorsBackTo(before);
  });

  it('gives the chunks of downloads whose clients went away to the next ones, which still get their own bytes', async () => {
    const before = await openDescriptorCount();
    const files = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((index) => openedFile(`file-${index}.zip`, 12 * SEND_CHUNK_BYTES + index)),
    );
    // Each client leaves after its first chunk, mostly while the next one is being written to it.
    await Promise.all(files.map(({ bytes, file }) => receiveOpenFile(file, bytes.length, SEND_CHUNK_BYTES)));
    const again = await Promise.all(files.map((_, index) => reopen(files, index)));
    const received = await Promise.all(again.map(({ bytes, file }) => receiveOpenFile(file, bytes.length)));
    received.forEach((got, index) => {
      expect(got.equals(again[index]!.bytes)).toBe(true);
    });
    await descriptorsBackTo(before);
  });

  it('cuts the answer short, rather than pad it, when the file is shorter than its size', async () => {
    const { bytes, file } = await openedFile('short.zip', SEND_CHUNK_BYTES + 10);
    const received = await receiveOpenFile(file, bytes.length + 1000).catch((error: Error) => error);
    expect(received).toBeInstanceOf(Error);
  });
});

async function reopen(
  files: Array<{ bytes: Buffer; file: OpenFile }>,
  index: number,
): Promise<{ bytes: Buffer; file: OpenFile }> {
  return { bytes: files[index]!.bytes, file: new OpenFile(openSync(path.join(dir, `file-${index + 1}.zip`), 'r')) };
}
