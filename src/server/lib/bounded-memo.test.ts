import { describe, expect, it } from 'vitest';
import { createBoundedMemo } from './bounded-memo.js';

describe('bounded memo', () => {
  it('computes a key once while it is kept, and keeps no undefined', () => {
    const computed: string[] = [];
    const memo = createBoundedMemo(10, (key: string) => {
      computed.push(key);
      return key.startsWith('/p2/') ? { path: key } : undefined;
    });
    const first = memo.get('/p2/acme/widget.json');
    expect(memo.get('/p2/acme/widget.json')).toBe(first);
    expect(memo.get('/login')).toBeUndefined();
    expect(memo.get('/login')).toBeUndefined();
    expect(computed).toEqual(['/p2/acme/widget.json', '/login', '/login']);
  });

  it('starts over once full, so a flood of new keys holds no more than its bound', () => {
    const computed: number[] = [];
    const memo = createBoundedMemo(3, (key: number) => {
      computed.push(key);
      return key * 2;
    });
    for (const key of [1, 2, 3]) memo.get(key);
    expect(memo.get(1)).toBe(2);
    memo.get(4); // full: emptied, then 4 kept
    memo.get(1);
    expect(computed).toEqual([1, 2, 3, 4, 1]);
    memo.clear();
    memo.get(4);
    expect(computed).toEqual([1, 2, 3, 4, 1, 4]);
  });
});
