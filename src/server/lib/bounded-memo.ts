// Values computed from a key and kept for the next ask, up to a number of entries; once full, the memo starts over.
// For hot paths whose keys repeat (the same few hundred p2 paths and package names, the seconds of held Last-Modified
// dates, a process's package ids, its repository hosts, the Accept-Encoding texts of its clients): cheaper than an
// LRU's bookkeeping at each ask, and a flood of new keys costs only their computing (issue 34). A computed `undefined`
// is not kept.

export type BoundedMemo<K, V> = {
  /** The value kept for `key`, else computed now (and kept unless undefined). */
  get(key: K): V;
  clear(): void;
};

export function createBoundedMemo<K, V>(maxEntries: number, compute: (key: K) => V): BoundedMemo<K, V> {
  const kept = new Map<K, V>();
  return {
    get(key) {
      const held = kept.get(key);
      if (held !== undefined) return held;
      const value = compute(key);
      if (value !== undefined) {
        if (kept.size >= maxEntries) kept.clear();
        kept.set(key, value);
      }
      return value;
    },
    clear() {
      kept.clear();
    },
  };
}
