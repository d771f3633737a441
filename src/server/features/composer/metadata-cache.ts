import { gzipSync } from 'node:zlib';
import type { AppContext } from '../../context.js';
import type { MetadataVersionRow } from './composer.repository.js';

// Rendered p2 files, kept per process and validated by every request: the one SQL statement of a p2 request
// sends back the package's metadata stamp and reads the versions again only when the stamp differs from the one
// held here. The database stays the only authority (a stale entry is never served), and a request costs one
// round trip whether the entry exists or not: the DESIGN's "token → grants → pre-rendered metadata".

/** A p2 body as bytes, and gzipped once for the clients that accept it (Composer's curl does). */
export class RenderedBody {
  private gzipBytes?: Buffer;

  constructor(readonly bytes: Buffer) {}

  gzipped(): Buffer {
    this.gzipBytes ??= gzipSync(this.bytes);
    return this.gzipBytes;
  }
}

export type CachedPackageMetadata = {
  packageId: string;
  /** metadata_updated_at as PostgreSQL prints it. */
  stamp: string;
  versions: MetadataVersionRow[];
  /** Serialized bodies by variant (host and freeze date): the same bytes for every holder who sees the same. */
  bodies: Map<string, RenderedBody>;
};

const MAX_ENTRIES = 2_000;
const MAX_BODIES_PER_ENTRY = 8;

export class MetadataCache {
  private readonly entries = new Map<string, CachedPackageMetadata>();

  static keyFor(sellerSlug: string | undefined, packageName: string, kind: 'tag' | 'branch'): string {
    return `${sellerSlug ?? ''} ${packageName} ${kind}`;
  }

  get(key: string): CachedPackageMetadata | undefined {
    const entry = this.entries.get(key);
    if (entry) {
      // Least recently used first: re-inserting moves the entry to the end.
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, entry: CachedPackageMetadata): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** The body of one variant, serialized once. */
  body(entry: CachedPackageMetadata, variant: string, render: () => string): RenderedBody {
    let body = entry.bodies.get(variant);
    if (body === undefined) {
      body = new RenderedBody(Buffer.from(render()));
      if (entry.bodies.size >= MAX_BODIES_PER_ENTRY) entry.bodies.clear();
      entry.bodies.set(variant, body);
    }
    return body;
  }
}

// One cache per running app: tests start several apps in one process.
const caches = new WeakMap<AppContext, MetadataCache>();

export function metadataCacheFor(ctx: AppContext): MetadataCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new MetadataCache();
    caches.set(ctx, cache);
  }
  return cache;
}
