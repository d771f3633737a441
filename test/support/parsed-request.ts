import { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

// A request as node:http's parser makes it, without a network: an IncomingMessage on its socket, given its header
// lines, method and URL as parserOnHeadersComplete (node:_http_common) gives them. Code that reads requests sees the
// same object shapes as on the network; a plain object in its place would be another hidden class (issue 34).

/** node:http's own method that gives an IncomingMessage its header lines (not in its public types). */
type ParsedHead = { _addHeaderLines(lines: string[], count: number): void };

export function parsedRequest(socket: Socket, headerLines: string[], url: string, method = 'GET'): IncomingMessage {
  const request = new IncomingMessage(socket);
  (request as unknown as ParsedHead)._addHeaderLines(headerLines, headerLines.length);
  request.method = method;
  request.url = url;
  return request;
}
