import type { IncomingMessage, ServerResponse } from 'node:http';

export function bareNodeHandler(
  files: Map<string, Buffer>,
  answerHeaders: Record<string, Record<string, string>>,
): (request: IncomingMessage, response: ServerResponse) => void;
