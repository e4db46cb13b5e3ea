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
