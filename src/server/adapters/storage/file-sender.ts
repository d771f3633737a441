import { close, read } from 'node:fs';
import type { ServerResponse } from 'node:http';

// A large stored file (a package zip over one read chunk) sent to an HTTP response from its open descriptor, read
// into a few reused 256 KB buffers: each is read into, written, and read into again once the socket has taken it
// (the write's callback). A file stream (fs.createReadStream piped to the response) allocates a new buffer per read
// and reads 64 KB at a time; downloading a 10 MB file on 100 connections at once it reached 1.02-1.07 GB/s with
// 96 KB reads (nginx with sendfile: 1.05-1.31 GB/s on the same machine), 1.18 GB/s with 256 KB reads but 126 MB more
// resident while the downloads ran. This sender: 1.42-1.57 GB/s with 41 MB more (a bare node:http server of each
// kind side by side, wrk -c100, 2026-11-29). Issue 34, item 1's 10 MB dist figure.

/** Bytes read at a time: fewer trips through libuv's thread pool and fewer writes than the file stream's 96 KB. */
export const SEND_CHUNK_BYTES = 256 * 1024;

/** Chunks kept for the next downloads once theirs is over: 4 MB; a burst beyond that lets its chunks go. */
const MAX_SPARE_CHUNKS = 16;
const spareChunks: Buffer[] = [];

/** An opened file whose bytes are to be sent whole; whoever holds it sends it (sendOpenFile) or closes it. */
export class OpenFile {
  constructor(readonly descriptor: number) {}
}

export function closeOpenFile(file: OpenFile): void {
  close(file.descriptor, () => {});
}

/**
 * Writes the file's first `size` bytes to the response after its head (written by the caller), ends it and closes
 * the file. A read that fails or finds the file shorter destroys the response: its length was promised. A client
 * that goes away stops the reads; the file is closed once no read uses its descriptor any more.
 */
export function sendOpenFile(response: ServerResponse, file: OpenFile, size: number): void {
  const chunk = spareChunks.pop() ?? Buffer.allocUnsafeSlow(SEND_CHUNK_BYTES);
  let position = 0;
  let isReading = false;
  let isOver = false;

  /** Closes the file once; the chunk is kept for another download only when no write can still hold it. */
  const finish = (isChunkFree: boolean) => {
    if (isOver) return;
    isOver = true;
    response.off('close', onClose);
    closeOpenFile(file);
    if (isChunkFree && spareChunks.length < MAX_SPARE_CHUNKS) spareChunks.push(chunk);
  };
  // After a normal end, finish has run already. Before it, the client went away: a read in flight still uses the
  // descriptor (closing it now could let the number name another file before that read ends), so its callback
  // finishes; a write in flight may still hold the chunk, so it is not reused.
  const onClose = () => {
    if (!isReading) finish(false);
  };
  response.on('close', onClose);

  const readNext = () => {
    if (isOver) return;
    if (response.destroyed) {
      finish(false);
      return;
    }
    if (position >= size) {
      finish(true);
      response.end();
      return;
    }
    isReading = true;
    read(file.descriptor, chunk, 0, Math.min(SEND_CHUNK_BYTES, size - position), position, (error, bytesRead) => {
      isReading = false;
      if (isOver) return;
      if (response.destroyed) {
        finish(true);
        return;
      }
      if (error || bytesRead === 0) {
        finish(true);
        response.destroy(error ?? new Error('the stored file is shorter than its size'));
        return;
      }
      position += bytesRead;
      response.write(bytesRead === SEND_CHUNK_BYTES ? chunk : chunk.subarray(0, bytesRead), (writeError) => {
        if (writeError) finish(false);
        else readNext();
      });
    });
  };
  readNext();
}
