import { isIPv4, isIPv6 } from 'node:net';
import { domainToASCII } from 'node:url';

// The one parser of a request's Host (and of X-Forwarded-Host from a trusted proxy): DESIGN "URLs and hosts". Every
// door reads the host through it, the Composer fast path and Fastify's hook alike (request-origin.ts), so that no
// piece of the product can take `acme.composer.localhost:5000@evil.example` for the seller's host again (issue 28).
// What it accepts is `hostname[:port]` (RFC 9110 §7.2: uri-host [":" port]) narrowed to names DNS can hold:
// - a name of LDH labels (letters, digits, hyphen; underscore too, which DNS names of services carry), each 1-63
//   characters, 253 in all, an optional trailing dot; IDNs arrive as punycode (`xn--`), raw non-ASCII is refused;
// - an IPv4 address (a name whose last label is a number, `1` or `0x1`, must be one), or an IPv6 literal in
//   brackets (no zone); punycode must decode (what WHATWG's URL parser takes, so that any URL library agrees);
// - a port of 1-5 digits, 1-65535.
// One linear pass over at most MAX_HOST_LENGTH characters, no regular expression: this runs on every request.

/** A Host that passed: the name in lower case without the trailing dot (`[::1]` keeps its brackets), and the port. */
export type ParsedHost = { hostname: string; port: number | undefined };

const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
/** The longest IPv6 text (`ffff:...:255.255.255.255`). */
const MAX_IPV6_LENGTH = 45;
/** A name, its trailing dot, a colon and five digits of port. */
export const MAX_HOST_LENGTH = MAX_NAME_LENGTH + 1 + 1 + 5;

const DOT = 0x2e;
const COLON = 0x3a;
const HYPHEN = 0x2d;
const UNDERSCORE = 0x5f;
const OPEN_BRACKET = 0x5b;

/** `:5000` → 5000; undefined unless 1-5 digits naming 1-65535. `from` is the index after the colon. */
function parsePort(value: string, from: number): number | undefined {
  const digits = value.length - from;
  if (digits < 1 || digits > 5) return undefined;
  let port = 0;
  for (let index = from; index < value.length; index++) {
    const code = value.charCodeAt(index) - 0x30;
    if (code < 0 || code > 9) return undefined;
    port = port * 10 + code;
  }
  return port >= 1 && port <= 65_535 ? port : undefined;
}

function parseIpv6Literal(value: string): ParsedHost | undefined {
  const close = value.indexOf(']');
  if (close < 3 || close - 1 > MAX_IPV6_LENGTH) return undefined;
  const address = value.slice(1, close);
  // node's isIPv6 takes a zone (`fe80::1%eth0`); a Host may not carry one.
  if (address.includes('%') || !isIPv6(address)) return undefined;
  let port: number | undefined;
  if (close + 1 < value.length) {
    if (value.charCodeAt(close + 1) !== COLON) return undefined;
    port = parsePort(value, close + 2);
    if (port === undefined) return undefined;
  }
  return { hostname: `[${address.toLowerCase()}]`, port };
}

/** The host a Host header names, or undefined when it is not `hostname[:port]`. */
export function parseHostHeader(value: string): ParsedHost | undefined {
  const length = value.length;
  if (length === 0 || length > MAX_HOST_LENGTH) return undefined;
  if (value.charCodeAt(0) === OPEN_BRACKET) return parseIpv6Literal(value);

  let labelLength = 0;
  let isLabelNumeric = true;
  let isPreviousLabelNumeric = false;
  let hasUpperCase = false;
  let end = length;
  for (let index = 0; index < length; index++) {
    const code = value.charCodeAt(index);
    if (code === COLON) {
      end = index;
      break;
    }
    if (code === DOT) {
      if (labelLength === 0) return undefined; // `..` or a leading dot
      labelLength = 0;
      isPreviousLabelNumeric = isLabelNumeric;
      isLabelNumeric = true;
      continue;
    }
    if (code >= 0x30 && code <= 0x39) {
      // a digit
    } else if ((code >= 0x61 && code <= 0x7a) || code === HYPHEN || code === UNDERSCORE) {
      isLabelNumeric = false;
    } else if (code >= 0x41 && code <= 0x5a) {
      isLabelNumeric = false;
      hasUpperCase = true;
    } else {
      return undefined; // userinfo, a path, a bracket, a space, non-ASCII, anything a name cannot hold
    }
    if (++labelLength > MAX_LABEL_LENGTH) return undefined;
  }

  // The name ends at `end`; an empty last label is the root's trailing dot (`example.com.`), unless the name is empty.
  let nameEnd = end;
  if (labelLength === 0) {
    if (end === 0) return undefined;
    nameEnd = end - 1;
    if (nameEnd === 0) return undefined;
  }
  if (nameEnd > MAX_NAME_LENGTH) return undefined;

  let port: number | undefined;
  if (end < length) {
    port = parsePort(value, end + 1);
    if (port === undefined) return undefined;
  }

  let hostname = nameEnd === length ? value : value.slice(0, nameEnd);
  if (hasUpperCase) hostname = hostname.toLowerCase();
  // `999.1.1.1` and `1.2.3` are no names (a top-level label is never all digits) and no IPv4 address either.
  const isTopLabelNumeric = labelLength > 0 ? isLabelNumeric : isPreviousLabelNumeric;
  if ((isTopLabelNumeric || isHexTopLabel(hostname)) && !isIPv4(hostname)) return undefined;
  // Punycode that decodes to nothing valid (`xn--acme-9ta`) is no IDN: the WHATWG URL parser, which every URL
  // library and browser follows, refuses it, and a third-party route that builds a URL from it would throw.
  if (hostname.includes('xn--') && domainToASCII(hostname) === '') return undefined;
  return { hostname, port };
}

/** Whether the top label is `0x` and hex digits: the WHATWG URL parser reads it as a number, as `a.0x1` (no name). */
function isHexTopLabel(hostname: string): boolean {
  const start = hostname.lastIndexOf('.') + 1;
  if (hostname.charCodeAt(start) !== 0x30 || hostname.charCodeAt(start + 1) !== 0x78) return false;
  for (let index = start + 2; index < hostname.length; index++) {
    const code = hostname.charCodeAt(index);
    if (!((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66))) return false;
  }
  return true;
}

/** `acme.composer.localhost:5000`, as it was parsed; the form Composer keys a bearer credential by. */
export function formatHost(host: ParsedHost): string {
  return host.port === undefined ? host.hostname : `${host.hostname}:${host.port}`;
}
