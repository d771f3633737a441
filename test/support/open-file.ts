import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type OpenFile, sendOpenFile } from '../../src/server/adapters/storage/file-sender.js';

/**
 * What a client receives when a loopback node:http server sends the open file with sendOpenFile: its bytes, or
 * its first `abortAfter` bytes when the client goes away there. The server is closed afterwards.
 */
export async function receiveOpenFile(file: OpenFile, size: number, abortAfter?: number): Promise<Buffer> {
  const server = createServer((_incoming, response) => {
    response.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(size) });
    sendOpenFile(response, file, size);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise<Buffer>((resolve, reject) => {
      const outgoing = request({ host: '127.0.0.1', port, path: '/' }, (response) => {
        const chunks: Buffer[] = [];
        let received = 0;
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          received += chunk.length;
          if (abortAfter !== undefined && received >= abortAfter) {
            outgoing.destroy();
            resolve(Buffer.concat(chunks));
          }
        });
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      });
      outgoing.on('error', (error) => (abortAfter === undefined ? reject(error) : undefined));
      outgoing.end();
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}
