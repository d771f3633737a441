import { connect } from 'node:net';

// Requests that fetch() and http.request() refuse to send (malformed header bytes, absolute-form targets, odd
// methods), written to the socket as they are. The answer is read until the server closes the connection.

export type RawAnswer = { status: number; headers: Record<string, string>; body: string };

/** Sends `head` (request line and headers, without the final blank line) and `body`, with Connection: close. */
export function sendRaw(port: number, head: string, body = ''): Promise<RawAnswer> {
  const request = `${head}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  return new Promise((resolve, reject) => {
    // write, not end: Node's server drops a request whose client half-closes before the answer is ready.
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseAnswer(Buffer.concat(chunks).toString('utf8'))));
  });
}

function parseAnswer(text: string): RawAnswer {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine = '', ...headerLines] = text.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(split + 4) };
}
