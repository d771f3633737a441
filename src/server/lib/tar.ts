import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';

// A minimal POSIX tar (ustar, with pax headers for long names) for backups and sellers' data exports: regular files
// only, written and read as streams. A backup is a plain .tar.gz, so an operator can look into one with `tar tzf`. Writing it here rather than
// through a library keeps to the one thing a backup needs (files whose size is known before their bytes), and lets
// the reader hash each entry as it passes and stop at the first malformed header instead of extracting anything.

const BLOCK = 512;
/** An ustar size field holds 11 octal digits: 8 GiB - 1. */
const MAX_ENTRY_BYTES = 8 * 1024 ** 3 - 1;
/** A pax header of ours holds one path; a larger one is not ours. */
const MAX_PAX_BYTES = 64 * 1024;

export class ArchiveFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ArchiveFormatError';
  }
}

/** The stream ended where the archive needed more bytes. */
class EndOfStream extends ArchiveFormatError {}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, type: '0' | 'x', mtime: Date): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write(type, 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/** A pax extended header carrying `path`, for names that do not fit ustar's 100 bytes. */
function paxPath(name: string): Buffer {
  const body = ` path=${name}\n`;
  let length = Buffer.byteLength(body);
  // The record's length counts its own digits.
  while (Buffer.byteLength(`${length}${body}`) !== length) length = Buffer.byteLength(`${length}${body}`);
  return Buffer.from(`${length}${body}`);
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** Writes tar entries into `out` (a gzip stream, say), waiting for it to drain. */
export class TarWriter {
  constructor(
    private readonly out: Writable,
    private readonly mtime: Date,
  ) {}

  private async write(chunk: Buffer): Promise<void> {
    if (this.out.destroyed) throw new Error('The backup stream was closed');
    if (!this.out.write(chunk)) await once(this.out, 'drain');
  }

  /** Adds one file of `size` bytes; returns the SHA-256 of its bytes. Fails if the source holds another number. */
  async add(name: string, size: number, source: Buffer | Readable): Promise<string> {
    if (size > MAX_ENTRY_BYTES) throw new Error(`${name} is larger than a backup entry may be (8 GiB)`);
    const nameBytes = Buffer.byteLength(name);
    if (nameBytes > 100) {
      const pax = paxPath(name);
      await this.write(header(`PaxHeader/${name.slice(-80)}`, pax.length, 'x', this.mtime));
      await this.write(Buffer.concat([pax, padding(pax.length)]));
    }
    await this.write(header(nameBytes > 100 ? name.slice(0, 90) : name, size, '0', this.mtime));
    const hash = createHash('sha256');
    let written = 0;
    const chunks: AsyncIterable<Buffer> | Buffer[] = Buffer.isBuffer(source) ? [source] : source;
    for await (const chunk of chunks) {
      written += chunk.length;
      if (written > size) break;
      hash.update(chunk);
      await this.write(chunk);
    }
    if (written !== size) {
      if (!Buffer.isBuffer(source)) source.destroy();
      throw new Error(`${name} changed while it was copied: expected ${size} bytes, read ${written}`);
    }
    await this.write(padding(size));
    return hash.digest('hex');
  }

  /** Writes the two zero blocks that end an archive and ends the stream. */
  async finish(): Promise<void> {
    await this.write(Buffer.alloc(BLOCK * 2));
    this.out.end();
  }
}

/** Reads exact byte counts from a stream of chunks. */
class ByteReader {
  private buffered: Buffer[] = [];
  private length = 0;
  private done = false;
  private readonly iterator: AsyncIterator<Buffer>;

  constructor(source: AsyncIterable<Buffer>) {
    this.iterator = source[Symbol.asyncIterator]();
  }

  private async fill(wanted: number): Promise<void> {
    while (this.length < wanted && !this.done) {
      const next = await this.iterator.next();
      if (next.done) this.done = true;
      else {
        this.buffered.push(next.value);
        this.length += next.value.length;
      }
    }
  }

  /** Up to `max` bytes (at least one), or undefined at the end of the stream. */
  async some(max: number): Promise<Buffer | undefined> {
    await this.fill(1);
    if (this.length === 0) return undefined;
    const first = this.buffered[0]!;
    const taken = first.subarray(0, max);
    if (taken.length === first.length) this.buffered.shift();
    else this.buffered[0] = first.subarray(taken.length);
    this.length -= taken.length;
    return taken;
  }

  /** Exactly `count` bytes; throws when the stream ends first. */
  async exactly(count: number): Promise<Buffer> {
    await this.fill(count);
    if (this.length < count) throw new EndOfStream('The archive ends in the middle of an entry');
    const whole = Buffer.concat(this.buffered);
    this.buffered = whole.length > count ? [whole.subarray(count)] : [];
    this.length = whole.length - count;
    return whole.subarray(0, count);
  }

  async skip(count: number): Promise<void> {
    let left = count;
    while (left > 0) {
      const chunk = await this.some(left);
      if (!chunk) throw new ArchiveFormatError('The archive ends in the middle of an entry');
      left -= chunk.length;
    }
  }
}

export type TarEntry = { name: string; size: number; body: AsyncIterable<Buffer> };

function readOctal(block: Buffer, offset: number, width: number): number {
  // Tar pads numbers with NULs and spaces; trimmed by hand, as a `[\0 ]+$` pattern backtracks quadratically.
  let end = offset + width;
  while (end > offset && (block[end - 1] === 0 || block[end - 1] === 0x20)) end--;
  const text = block.toString('ascii', offset, end).trim();
  if (!/^[0-7]{1,12}$/.test(text)) throw new ArchiveFormatError('The archive holds a malformed tar header');
  return Number.parseInt(text, 8);
}

function readString(block: Buffer, offset: number, width: number): string {
  const field = block.subarray(offset, offset + width);
  const end = field.indexOf(0);
  return field.toString('utf8', 0, end === -1 ? width : end);
}

function checkHeader(block: Buffer): void {
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  if (block.toString('ascii', 257, 262) !== 'ustar' || readOctal(block, 148, 8) !== sum) {
    throw new ArchiveFormatError('The archive holds a malformed tar header');
  }
}

function paxPathOf(record: Buffer): string | undefined {
  let rest = record.toString('utf8');
  let path: string | undefined;
  while (rest.length > 0) {
    const space = rest.indexOf(' ');
    const length = Number(rest.slice(0, space));
    if (space <= 0 || !Number.isSafeInteger(length) || length <= space || length > rest.length) {
      throw new ArchiveFormatError('The archive holds a malformed pax header');
    }
    const [key, ...value] = rest.slice(space + 1, length - 1).split('=');
    if (key === 'path') path = value.join('=');
    rest = rest.slice(length);
  }
  return path;
}

/**
 * The regular files of a tar stream, in order. Each entry's body must be read to its end (or not at all) before the
 * next entry is asked for. Throws ArchiveFormatError on a malformed header or an archive that ends early (no two
 * zero blocks).
 */
export async function* readTar(source: AsyncIterable<Buffer>): AsyncGenerator<TarEntry> {
  const reader = new ByteReader(source);
  let longName: string | undefined;
  for (;;) {
    const block = await reader.exactly(BLOCK).catch((error: unknown) => {
      throw error instanceof EndOfStream ? new ArchiveFormatError('The archive ends before its end marker') : error;
    });
    if (block.every((byte) => byte === 0)) return;
    checkHeader(block);
    const size = readOctal(block, 124, 12);
    const type = String.fromCharCode(block[156]!);
    const padded = size + ((BLOCK - (size % BLOCK)) % BLOCK);
    if (type === 'x') {
      if (size > MAX_PAX_BYTES) throw new ArchiveFormatError('The archive holds a pax header too large to be ours');
      longName = paxPathOf((await reader.exactly(padded)).subarray(0, size));
      continue;
    }
    if (type !== '0' && type !== '\0') {
      throw new ArchiveFormatError(`The archive holds an entry of tar type ${JSON.stringify(type)}, not a file`);
    }
    const prefix = readString(block, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${readString(block, 0, 100)}` : readString(block, 0, 100));
    longName = undefined;
    let left = size;
    const body = async function* () {
      while (left > 0) {
        const chunk = await reader.some(left);
        if (!chunk) throw new ArchiveFormatError('The archive ends in the middle of an entry');
        left -= chunk.length;
        yield chunk;
      }
    };
    yield { name, size, body: body() };
    await reader.skip(left + (padded - size));
  }
}
