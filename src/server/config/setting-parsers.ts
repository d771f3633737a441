import { isIP } from 'node:net';
import { z } from 'zod';

// The shapes a setting's text may take (a flag, an optional text or URL, address lists, TRUST_PROXY), which the
// schema of settings (env-schema.ts) is made of.

export const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

export const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : undefined));

export const optionalUrl = optionalText.pipe(z.url().optional());

// `1.1.1.1`, `127.0.0.1:5353`, `[2606:4700::1111]:53` or a bare IPv6 address, separated by commas.
const DNS_SERVER = String.raw`(?:\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?|\[[0-9a-fA-F:.]+\](?::\d{1,5})?|[0-9a-fA-F.]*:[0-9a-fA-F.]*:[0-9a-fA-F:.]*)`;
export const DNS_SERVER_LIST = new RegExp(`^${DNS_SERVER}(?:\\s*,\\s*${DNS_SERVER})*$`);
const HOST_LABEL = /^[a-z0-9-]{1,63}$/i;

/** A WEBHOOK_ALLOWED_HOSTS entry: an IP address, a CIDR range (`127.0.0.0/8`, `::1/128`) or a host name. */
export function isWebhookAllowEntry(entry: string): boolean {
  const [address, bits, ...rest] = entry.split('/');
  if (rest.length > 0 || !address) return false;
  if (bits !== undefined) return isIP(address) !== 0 && /^\d{1,3}$/.test(bits);
  return isIP(address) !== 0 || (address.length <= 253 && address.split('.').every((label) => HOST_LABEL.test(label)));
}

/**
 * TRUST_PROXY, in the forms Fastify's `trustProxy` takes: false (no proxy); a number of proxy hops in front of
 * the app; or the addresses (IPs or CIDRs) of the proxies. Trusting every hop would let any client choose its own
 * address with X-Forwarded-For and so escape every per-IP limit: `true` means one proxy, the usual setup.
 */
export type TrustProxy = false | number | string[];

const MAX_TRUSTED_PROXIES = 100;

/**
 * The setting as Fastify's `trustProxy` option. Fastify ignores a bare hop count (it cannot tell a proxy from a
 * direct client), so hops become a function: the n addresses nearest the app are proxies, the next is the client.
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}

function isProxyAddress(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (prefix.length === 0 || prefix.length > 3 || ![...prefix].every((char) => char >= '0' && char <= '9')) {
    return false;
  }
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export const trustProxySetting = z
  .string()
  .max(4096)
  .optional()
  .transform((value, context): TrustProxy => {
    const text = value?.trim().toLowerCase() ?? '';
    if (['', 'false', '0', 'no'].includes(text)) return false;
    if (['true', 'yes'].includes(text)) return 1;
    if ([...text].every((char) => char >= '0' && char <= '9')) {
      const hops = Number(text);
      if (hops <= MAX_TRUSTED_PROXIES) return hops === 0 ? false : hops;
    }
    const entries = text.split(',').map((entry) => entry.trim());
    if (entries.length <= MAX_TRUSTED_PROXIES && entries.every(isProxyAddress)) return entries;
    context.addIssue({
      code: 'custom',
      message:
        "must be false, a number of proxy hops (1, 2, ...) or the proxies' IP addresses or CIDR ranges, separated by commas",
    });
    return z.NEVER;
  });
