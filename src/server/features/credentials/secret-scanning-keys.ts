import { createPublicKey, type KeyObject } from 'node:crypto';

// The public keys GitHub signs secret scanning reports with (SECRET_SCANNING_KEYS_URL, by default
// https://api.github.com/meta/public_keys/secret_scanning): fetched when first needed, kept for an hour, fetched again
// for an identifier we do not know (at most once a minute, so forged identifiers cannot make us hammer GitHub), and
// bounded in time and size so a slow or huge answer blocks nothing.

const KEEP_MS = 60 * 60 * 1000;
const REFETCH_UNKNOWN_AFTER_MS = 60 * 1000;
const FETCH_TIMEOUT_MS = 5000;
const MAX_BODY_BYTES = 64 * 1024;
const MAX_KEYS = 32;

type KeysAnswer = { public_keys?: { key_identifier?: unknown; key?: unknown }[] };

export type SecretScanningKeys = { find(keyIdentifier: string): Promise<KeyObject | undefined> };

async function readBounded(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw new Error(`secret scanning keys answer over ${MAX_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Only P-256 keys: a report signed with any other kind of key is refused. */
function parseP256Key(pem: unknown): KeyObject | undefined {
  if (typeof pem !== 'string' || pem.length > 4096) return undefined;
  try {
    const key = createPublicKey(pem);
    const isP256 = key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1';
    return isP256 ? key : undefined;
  } catch {
    return undefined;
  }
}

async function fetchKeys(url: string): Promise<Map<string, KeyObject>> {
  const response = await fetch(url, {
    headers: { accept: 'application/json', 'user-agent': 'Packgate secret scanning' },
    redirect: 'error',
    signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`secret scanning keys answered ${response.status}`);
  const answer = JSON.parse(await readBounded(response)) as KeysAnswer;
  const keys = new Map<string, KeyObject>();
  for (const entry of (answer.public_keys ?? []).slice(0, MAX_KEYS)) {
    const key = parseP256Key(entry.key);
    if (typeof entry.key_identifier === 'string' && entry.key_identifier.length <= 200 && key) {
      keys.set(entry.key_identifier, key);
    }
  }
  return keys;
}

export function createSecretScanningKeys(url: string, now: () => number = Date.now): SecretScanningKeys {
  let keys = new Map<string, KeyObject>();
  let fetchedAt = Number.NEGATIVE_INFINITY;
  let inFlight: Promise<void> | undefined;

  const refresh = () => {
    inFlight ??= fetchKeys(url)
      .then((fetched) => {
        keys = fetched;
      })
      .finally(() => {
        // A failed fetch also waits its minute: GitHub being down must not turn every report into a fetch.
        fetchedAt = now();
        inFlight = undefined;
      });
    return inFlight;
  };

  return {
    async find(keyIdentifier) {
      const age = now() - fetchedAt;
      const isStale = age > KEEP_MS;
      const mayRefetch = !keys.has(keyIdentifier) && age > REFETCH_UNKNOWN_AFTER_MS;
      if (isStale || mayRefetch) await refresh().catch(() => undefined);
      return keys.get(keyIdentifier);
    },
  };
}
