import { LRUCache } from 'lru-cache';
import type { SellerSelector } from '../../http/hosts.js';

// Which seller a custom host name belongs to, remembered (findSellerByCustomDomain in custom-domains.ts fills it).
// Apart from custom-domains.ts so that the context can name it without importing what imports the context.

// Every request to an unknown host would otherwise cost a query; misses are remembered too, so that random Host
// headers cannot turn into a stream of queries. Short enough that another process sees a change within seconds;
// bounded, the least recently asked host going first (lru-cache), so a flood of random hosts cannot grow it.
const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 10_000;

type CacheEntry = { seller: SellerSelector | undefined; expiresAt: number };

/**
 * Remembered answers of findSellerByCustomDomain, one per app (made in buildApp and handed out on the context):
 * several apps (tests) may share this process, each with a database of its own.
 */
export class CustomDomainCache {
  private readonly entries = new LRUCache<string, CacheEntry>({ max: CACHE_MAX_ENTRIES });

  get(hostname: string, now: number): CacheEntry | undefined {
    const entry = this.entries.get(hostname);
    return entry && entry.expiresAt > now ? entry : undefined;
  }

  set(hostname: string, seller: SellerSelector | undefined, now: number): void {
    this.entries.set(hostname, { seller, expiresAt: now + CACHE_TTL_MS });
  }

  delete(hostname: string): void {
    this.entries.delete(hostname);
  }
}
