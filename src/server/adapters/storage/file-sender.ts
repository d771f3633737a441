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

/**
 * Chunks kept for the next downloads once theirs is over: up to 32 MB, held after a burst of 128 downloads at once. A
 * chunk let go outlives its download until V8's next full collection, which can be minutes away under a download load
 * (young-generation collections do not free it), so a new download that allocates where an old chunk could have been
 * taken grows the process: 100 connections downloading a 10 MB zip in turns of 5 s grew the built server by 68 to
 * 86 MB with 16 kept, 70 with 64 (its ArrayBuffers from 9 to 56 MB over three turns), 30 to 56 MB with 128 (its
 * ArrayBuffers steady at 35 MB): npm run bench (e), 2026-11-30.
 */
const MAX_SPARE_CHUNKS = 128;
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
  // At most one of the two at a time: the chunk is read into, then written, then read into again.
  let isReading = false;
  let isWriting = false;
  let isOver = false;
  let isChunkKept = false;

  /** Gives the chunk to the next download, once, when nothing of this one can still read into it or send it. */
  const keepChunk = () => {
    if (isChunkKept) return;
    isChunkKept = true;
    if (spareChunks.length < MAX_SPARE_CHUNKS) spareChunks.push(chunk);
  };
  /** Closes the file once; `isChunkFree`: no read or write holds the chunk any more. */
  const finish = (isChunkFree: boolean) => {
    if (isOver) return;
    isOver = true;
    response.off('close', onClose);
    closeOpenFile(file);
    if (isChunkFree) keepChunk();
  };
  // After a normal end, finish has run already. Before it, the client went away: a read in flight still uses the
  // descriptor (closing it now could let the number name another file before that read ends), so its callback
  // finishes; a write in flight still holds the chunk, so the file is closed now and the chunk kept when the write's
  // callback comes (Node.js calls it once the socket has let the chunk go; a write to a socket already gone never
  // calls it, and that chunk is let go).
  const onClose = () => {
    if (!isReading) finish(!isWriting);
  };
  response.on('close', onClose);

  const readNext = () => {
    if (isOver) return;
    if (response.destroyed) {
      finish(true);
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
      isWriting = true;
      response.write(bytesRead === SEND_CHUNK_BYTES ? chunk : chunk.subarray(0, bytesRead), (writeError) => {
        isWriting = false;
        if (isOver) keepChunk();
        else if (writeError) finish(true);
        else readNext();
      });
    });
  };
  readNext();
}
