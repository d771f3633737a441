import { gzipSync } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { createBoundedMemo } from '../../lib/bounded-memo.js';
import type { TokenView } from './access-view.repository.js';
import type { DistVersionRow, MetadataVersionRow, PackageLifecycleFacts } from './composer.repository.js';

// The warm path of the Composer repository (DESIGN, "The warm path of the Composer repository"). A process keeps, per
// named token, what that token may see (the token's own state, its holder's seller and the seller's subscription,
// every license covering each package, directly or through a product, with its dates, limits, end mode and parsed
// version terms) and, per package, the versions and the rendered p2 bodies (plain and gzip). It never keeps a verdict: the
// service decides every request from these facts at the request's time, so expiry, the update freeze, the download
// limit and a lapsed seller's grace period turn exactly when they would against the database.
//
// What is held is only as good as the change feed that invalidates it. Triggers on every table these facts come from
// announce each committed write on the NOTIFY channel `packgate_access` (migration 0013_access_change_feed):
// - in this process, synchronously: every database connection of the process listens, and a listening session
//   receives its own transaction's notifications before its COMMIT returns (PGlite: inside the statement), so the
//   very next request after any write of this process already misses the stale entry, whoever wrote;
// - from other processes, on a dedicated listening connection (adapters/change-feed), within milliseconds.
// PostgreSQL LISTEN/NOTIFY rather than Redis pub/sub: the announcement is made by the database in the writing
// transaction, so no writer (a route, a job, a script, psql) can forget it, a rolled-back write announces nothing,
// and it needs nothing beyond the database every process already shares; Redis is optional in a deployment and would
// need every writer to publish after its commit.
// While that connection is down (or not yet up) nothing held is trusted: every request goes to the database, and when
// the feed listens again everything held is dropped, since what was announced meanwhile is unknown.
//
// A new writer needs to do nothing as long as it writes to the tables that carry the triggers. A new table that
// decides access must get the same trigger (see the migration), or the repository queries must not read it.

export const ACCESS_CHANNEL = 'packgate_access';

/** A p2 body as bytes, and gzipped once for the clients that accept it (Composer's curl does). */
export type RenderedBody = { bytes: Buffer; gzipped(): Buffer };

type ViewEntry = { kind: 'view'; tokenHash: string; view: TokenView; size: number };
export type VersionsEntry = {
  kind: 'versions';
  packageId: string;
  fileKind: 'tag' | 'branch';
  versions: MetadataVersionRow[];
  /** Advisories, abandonment and yanks of the package (features/lifecycle), rendered with the versions. */
  lifecycle: PackageLifecycleFacts;
  /** Distinguishes this read from later ones of the same package: rendered bodies are keyed by it. */
  fill: number;
  bodyKeys: Set<string>;
  /** The last body variant asked for and its key, so that the next request for it looks up a key already hashed. */
  lastBody?: { variant: string; key: string };
  size: number;
};
type BodyEntry = { kind: 'body'; body: RenderedBody; size: number };
type DistsEntry = { kind: 'dists'; versions: DistVersionRow[]; size: number };
type Entry = ViewEntry | VersionsEntry | BodyEntry | DistsEntry;

/** Rough bytes of a held object: UTF-16 strings and per-object overhead, not a measurement. */
function viewSize(view: TokenView): number {
  let size = 600 + view.sellerSlug.length * 2;
  // The name as a key and in each grant, and once more in the view's packages.json bytes (packagesJsonBody); each
  // covering grant with its parsed terms.
  for (const access of view.packages.values()) {
    size += 120 + access.packageName.length * 4;
    for (const grant of access.grants) size += 360 + (grant.terms.constraintText?.length ?? 0) * 12;
  }
  return size;
}

/** A view's last packages.json: the decision it was serialized from, and the bytes. */
type PackagesJsonBody = { available: readonly string[]; warnings: string[]; bytes: Buffer };

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

function versionsSize(versions: MetadataVersionRow[], lifecycle: PackageLifecycleFacts): number {
  return 200 + (JSON.stringify(versions).length + JSON.stringify(lifecycle).length) * 3;
}

// Keys of the one LRU, by kind. A view's key is its token's hash itself, with no prefix: the credential reader hands
// the warm door the same hash string request after request, and V8 hashes a string for a Map once and keeps it, while
// a key built per request is a new string hashed again at each lookup (issue 34: about 0.2 µs each, a quarter of the
// door's own time with four lookups). A hash is hex, so it never meets another kind's key, which all hold a space.
const viewKey = (tokenHash: string) => tokenHash;
const versionsKey = (packageId: string, kind: 'tag' | 'branch') => `m ${packageId} ${kind}`;
const distsKey = (packageId: string) => `d ${packageId}`;

/** Versions keys made once per package and handed out again, for the same reason. */
const versionsKeys = createBoundedMemo(10_000, (packageId: string) => ({
  tag: versionsKey(packageId, 'tag'),
  branch: versionsKey(packageId, 'branch'),
}));

const NO_LIFECYCLE: PackageLifecycleFacts = { abandoned: undefined, advisories: [], yanked: [] };

/** A read of the database, started at `epoch`: its result may be kept only if nothing changed meanwhile. */
export type FillTicket = { epoch: number };

export class ComposerAccessCache {
  private readonly entries: LRUCache<string, Entry>;
  /** Every held view of a holder, one per named token: a `c:` announcement drops them all. */
  private readonly keysOfCustomer = new Map<string, Set<string>>();
  private readonly keysOfSeller = new Map<string, Set<string>>();
  /** Goes with the view object: freed when the view is dropped, counted in its size (viewSize). */
  private readonly packagesJsonBodies = new WeakMap<TokenView, PackagesJsonBody>();
  /** Moves on every invalidation: a read that began before it may hold what was just announced as changed. */
  private epoch = 0;
  private fills = 0;
  private isFeedLive = false;

  constructor(readonly maxBytes: number) {
    this.entries = new LRUCache<string, Entry>({
      maxSize: Math.max(maxBytes, 1),
      sizeCalculation: (entry) => Math.max(1, entry.size),
      disposeAfter: (entry, key) => this.forget(entry, key),
    });
  }

  /** Whether what is held may answer requests: the cache is on and its change feed is listening. */
  get isTrusted(): boolean {
    return this.isFeedLive && this.maxBytes > 0;
  }

  /** Call before reading what will be kept: the read's result is kept only if no change was announced meanwhile. */
  ticket(): FillTicket {
    return { epoch: this.epoch };
  }

  private canKeep(ticket: FillTicket): boolean {
    return this.isTrusted && ticket.epoch === this.epoch;
  }

  /** Requests that found their token's view held, and those that had to read it (for /metrics). */
  hits = 0;
  misses = 0;

  findView(tokenHash: string): TokenView | undefined {
    const view = this.lookUpView(tokenHash);
    if (view) this.hits++;
    else this.misses++;
    return view;
  }

  /** findView for the fast path, whose misses go on to the routes: they count the miss, once. */
  findViewOrPassOn(tokenHash: string): TokenView | undefined {
    const view = this.lookUpView(tokenHash);
    if (view) this.hits++;
    return view;
  }

  private lookUpView(tokenHash: string): TokenView | undefined {
    if (!this.isTrusted) return undefined;
    const entry = this.entries.get(viewKey(tokenHash));
    return entry?.kind === 'view' ? entry.view : undefined;
  }

  keepView(ticket: FillTicket, tokenHash: string, view: TokenView): void {
    if (!this.canKeep(ticket)) return;
    const key = viewKey(tokenHash);
    this.entries.delete(key);
    this.entries.set(key, { kind: 'view', tokenHash, view, size: viewSize(view) });
    if (!this.entries.has(key)) return; // larger than the whole budget
    let customerKeys = this.keysOfCustomer.get(view.customerId);
    if (!customerKeys) {
      customerKeys = new Set();
      this.keysOfCustomer.set(view.customerId, customerKeys);
    }
    customerKeys.add(key);
    let sellerKeys = this.keysOfSeller.get(view.sellerId);
    if (!sellerKeys) {
      sellerKeys = new Set();
      this.keysOfSeller.set(view.sellerId, sellerKeys);
    }
    sellerKeys.add(key);
  }

  /** versionsKey, the same string for the same package (versionsKeys). */
  private versionsKeyOf(packageId: string, kind: 'tag' | 'branch'): string {
    return versionsKeys.get(packageId)[kind];
  }

  findVersions(packageId: string, kind: 'tag' | 'branch'): VersionsEntry | undefined {
    if (!this.isTrusted) return undefined;
    const entry = this.entries.get(this.versionsKeyOf(packageId, kind));
    return entry?.kind === 'versions' ? entry : undefined;
  }

  /** Keeps a package's versions when allowed; returns the entry to render from either way. */
  keepVersions(
    ticket: FillTicket,
    packageId: string,
    kind: 'tag' | 'branch',
    versions: MetadataVersionRow[],
    lifecycle: PackageLifecycleFacts = NO_LIFECYCLE,
  ): VersionsEntry {
    const entry: VersionsEntry = {
      kind: 'versions',
      packageId,
      fileKind: kind,
      versions,
      lifecycle,
      fill: ++this.fills,
      bodyKeys: new Set(),
      size: versionsSize(versions, lifecycle),
    };
    if (this.canKeep(ticket)) {
      const key = this.versionsKeyOf(packageId, kind);
      this.entries.delete(key);
      this.entries.set(key, entry);
    }
    return entry;
  }

  findDists(packageId: string): DistVersionRow[] | undefined {
    if (!this.isTrusted) return undefined;
    const entry = this.entries.get(distsKey(packageId));
    return entry?.kind === 'dists' ? entry.versions : undefined;
  }

  keepDists(ticket: FillTicket, packageId: string, versions: DistVersionRow[]): void {
    if (!this.canKeep(ticket)) return;
    const key = distsKey(packageId);
    this.entries.delete(key);
    this.entries.set(key, { kind: 'dists', versions, size: 200 + JSON.stringify(versions).length * 3 });
  }

  /** The body of one variant (host and freeze date) of a versions entry, rendered and gzipped once while held. */
  body(entry: VersionsEntry, variant: string, render: () => string): RenderedBody {
    let key = entry.lastBody?.variant === variant ? entry.lastBody.key : undefined;
    if (key === undefined) {
      key = `b ${entry.fill} ${variant}`;
      entry.lastBody = { variant, key };
    }
    const held = this.isTrusted ? this.entries.get(key) : undefined;
    if (held?.kind === 'body') return held.body;
    const bytes = Buffer.from(render());
    // Only a held versions entry keeps its bodies; anything else (feed down, cache off) renders per request.
    const isHeld = this.isTrusted && this.entries.peek(this.versionsKeyOf(entry.packageId, entry.fileKind)) === entry;
    if (!isHeld) return lazyGzip(bytes);
    const body: RenderedBody = { bytes, gzipped: constant(gzipSync(bytes)) };
    this.entries.set(key, { kind: 'body', body, size: 100 + bytes.length + body.gzipped().length });
    if (this.entries.has(key)) entry.bodyKeys.add(key);
    return body;
  }

  /**
   * packages.json of a held view for a decision made at the request's time: the bytes serialized for the same
   * decision last time, else `render`'s. The decision itself is never kept: a license ending turns the next request.
   */
  packagesJsonBody(view: TokenView, available: readonly string[], warnings: string[], render: () => Buffer): Buffer {
    const held = this.packagesJsonBodies.get(view);
    if (held && sameStrings(held.available, available) && sameStrings(held.warnings, warnings)) return held.bytes;
    const bytes = render();
    if (this.isTrusted) this.packagesJsonBodies.set(view, { available, warnings, bytes });
    return bytes;
  }

  /** One announcement of the change feed (see the migration for the payloads). */
  handleChange(payload: string): void {
    this.epoch++;
    if (payload === '*') {
      this.clear();
      return;
    }
    const separator = payload.indexOf(':');
    const scope = payload.slice(0, separator);
    const id = payload.slice(separator + 1);
    if (scope === 'c') {
      for (const key of [...(this.keysOfCustomer.get(id) ?? [])]) this.entries.delete(key);
    } else if (scope === 's') {
      for (const key of [...(this.keysOfSeller.get(id) ?? [])]) this.entries.delete(key);
    } else if (scope === 'p') {
      this.entries.delete(versionsKey(id, 'tag'));
      this.entries.delete(versionsKey(id, 'branch'));
      this.entries.delete(distsKey(id));
    } else {
      this.clear(); // an announcement this version does not know: the safe reading is "everything"
    }
  }

  /** The change feed stopped: nothing held can be trusted until it listens again. */
  handleFeedLost(): void {
    this.isFeedLive = false;
    this.epoch++;
    this.clear();
  }

  /** The change feed listens (again): start from nothing, since what was announced meanwhile is unknown. */
  handleFeedLive(): void {
    this.epoch++;
    this.clear();
    this.isFeedLive = true;
  }

  /** Bytes held, as the bound counts them. */
  get heldBytes(): number {
    return this.entries.calculatedSize;
  }

  private clear(): void {
    this.entries.clear();
    this.keysOfCustomer.clear();
    this.keysOfSeller.clear();
  }

  private forget(entry: Entry, key: string): void {
    if (entry.kind === 'view') {
      // keepView deletes before it sets, so a disposed view is gone, unless it was set again since.
      if (this.entries.has(key)) return;
      const customerKeys = this.keysOfCustomer.get(entry.view.customerId);
      customerKeys?.delete(key);
      if (customerKeys?.size === 0) this.keysOfCustomer.delete(entry.view.customerId);
      const sellerKeys = this.keysOfSeller.get(entry.view.sellerId);
      sellerKeys?.delete(key);
      if (sellerKeys?.size === 0) this.keysOfSeller.delete(entry.view.sellerId);
    } else if (entry.kind === 'versions') {
      for (const bodyKey of entry.bodyKeys) this.entries.delete(bodyKey);
    }
  }
}

function constant<T>(value: T): () => T {
  return () => value;
}

function lazyGzip(bytes: Buffer): RenderedBody {
  let gzipped: Buffer | undefined;
  return {
    bytes,
    gzipped() {
      gzipped ??= gzipSync(bytes);
      return gzipped;
    },
  };
}
