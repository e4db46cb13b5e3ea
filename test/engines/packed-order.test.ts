import { describe, expect, it } from 'vitest';
import { orderByKey } from '../../src/engines/packed-order.js';

describe('orderByKey', () => {
  it('orders values by key, ties by value, and keeps only the first `limit`', () => {
    const key: Record<number, number> = { 0: 3, 1: 1, 2: 3, 5: 0, 7: 1 };
    const values = [7, 2, 0, 5, 1];
    expect(orderByKey(values, (v) => key[v] as number, 8)).toEqual([5, 1, 7, 0, 2]);
    expect(orderByKey(values, (v) => key[v] as number, 8, 2)).toEqual([5, 1]);
    expect(orderByKey([], () => 0, 1)).toEqual([]);
  });

  it('keeps values exact at a large bound and large keys', () => {
    const bound = 300_000;
    const values = [299_999, 0, 150_000];
    expect(orderByKey(values, (v) => (v === 0 ? 1_000_000 : 2), bound)).toEqual([150_000, 299_999, 0]);
  });
});

describe('orderByKey, a few out of many (bounded heap)', () => {
  it('gives the same first values as sorting everything, for every limit', () => {
    let seed = 7;
    const random = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const values = Array.from({ length: 500 }, (_, i) => i).sort(() => random() - 0.5);
    const key = values.map(() => Math.floor(random() * 40));
    const keyOf = (v: number): number => key[v] as number;
    const all = [...values].sort((a, b) => keyOf(a) - keyOf(b) || a - b);
    expect(orderByKey(values, keyOf, 500)).toEqual(all);
    for (const limit of [0, 1, 2, 3, 10, 61, 62, 63, 100, 499, 500, 600]) {
      expect(orderByKey(values, keyOf, 500, limit)).toEqual(all.slice(0, limit));
    }
  });
});
