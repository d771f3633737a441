import type { IncomingHttpHeaders } from 'node:http';

// The head of a plain keep-alive HTTP/1.1 GET, read from a connection's bytes before node:http sees them
// (http/connection-door.ts). The reader is strict on purpose: it takes only what llhttp would read as the same single
// request without a body, and answers undefined for anything else (another method or version, a body announced,
// an upgrade, a header written twice, a folded line, a byte outside printable ASCII, a connection asked to close).
// A head it refuses is not refused: node:http reads those same bytes and decides, so the two readers never disagree
// on where a request ends. Linear in the head's length, no regular expression.

export type PlainGetHead = {
  /** The request target as written (origin form: it begins with `/`). */
  url: string;
  /** Header names lower-cased, each present once. */
  headers: IncomingHttpHeaders;
};

/** Headers whose presence leaves the request to node:http: a body, an upgrade, a 100-continue. */
const LEFT_TO_NODE = new Set(['content-length', 'transfer-encoding', 'upgrade', 'expect', 'http2-settings']);

const REQUEST_LINE_START = 'GET /';
const REQUEST_LINE_END = ' HTTP/1.1';

/** RFC 9110 tchar: the characters of a header name. */
function isTokenCode(code: number): boolean {
  if (code >= 0x61 && code <= 0x7a) return true; // a-z
  if (code >= 0x41 && code <= 0x5a) return true; // A-Z
  if (code >= 0x30 && code <= 0x39) return true; // 0-9
  // ! # $ % & ' * + - . ^ _ ` | ~
  return (
    code === 0x21 ||
    (code >= 0x23 && code <= 0x27) ||
    code === 0x2a ||
    code === 0x2b ||
    code === 0x2d ||
    code === 0x2e ||
    code === 0x5e ||
    code === 0x5f ||
    code === 0x60 ||
    code === 0x7c ||
    code === 0x7e
  );
}

function isToken(text: string): boolean {
  if (text.length === 0) return false;
  for (let index = 0; index < text.length; index++) if (!isTokenCode(text.charCodeAt(index))) return false;
  return true;
}

/** Printable ASCII, space and tab: a value this reader takes as it is (obs-text goes to node:http). */
function isPlainValue(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x09) continue;
    if (code < 0x20 || code > 0x7e) return false;
  }
  return true;
}

/** Visible ASCII only: a request target has no space, control or non-ASCII byte. */
function isPlainTarget(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code <= 0x20 || code > 0x7e) return false;
  }
  return true;
}

function isOptionalWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** The value without the optional whitespace around it. */
function trimValue(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isOptionalWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isOptionalWhitespace(text.charCodeAt(end - 1))) end--;
  return start === 0 && end === text.length ? text : text.slice(start, end);
}

/**
 * The request in `head` (latin1 text up to, not including, the blank line that ends it), or undefined when it is not
 * a plain keep-alive HTTP/1.1 GET this reader takes.
 */
export function readPlainGetHead(head: string): PlainGetHead | undefined {
  let lineEnd = head.indexOf('\r\n');
  const requestLine = lineEnd === -1 ? head : head.slice(0, lineEnd);
  if (!requestLine.startsWith(REQUEST_LINE_START) || !requestLine.endsWith(REQUEST_LINE_END)) return undefined;
  const url = requestLine.slice(REQUEST_LINE_START.length - 1, requestLine.length - REQUEST_LINE_END.length);
  if (!isPlainTarget(url)) return undefined;
  const headers: IncomingHttpHeaders = Object.create(null);
  while (lineEnd !== -1) {
    const start = lineEnd + 2;
    lineEnd = head.indexOf('\r\n', start);
    const line = lineEnd === -1 ? head.slice(start) : head.slice(start, lineEnd);
    const colon = line.indexOf(':');
    // No colon, an empty or folded name (a line that begins with whitespace), a stray CR or LF.
    if (colon <= 0) return undefined;
    const name = line.slice(0, colon);
    if (!isToken(name)) return undefined;
    const value = trimValue(line.slice(colon + 1));
    if (!isPlainValue(value)) return undefined;
    const key = name.toLowerCase();
    if (LEFT_TO_NODE.has(key) || headers[key] !== undefined) return undefined;
    if (key === 'connection' && value.toLowerCase() !== 'keep-alive') return undefined;
    headers[key] = value;
  }
  return { url, headers };
}
