// Usage counting: calls are counted in memory and written in one transaction per flush (on flush(), on the timer,
// when the buffer is full, and on close()), never per call; the report adds pending counts.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, vi } from 'vitest';
import { usageDay } from '../../src/accounts/index.js';
import { accountsTest as test, T0 } from '../helpers/accounts.js';

const rowsOnDisk = (path: string): number => {
  const db = new Database(path, { readonly: true });
  const { n } = db.prepare('SELECT count(*) AS n FROM usage').get() as { n: number };
  db.close();
  return n;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('recordUsage and fullUsageReport', () => {
  test('N calls are one transaction per flush, and the report totals them', ({ accounts, dbPath }) => {
    const day = usageDay(T0);
    for (let i = 0; i < 1000; i++) {
      accounts.recordUsage(1, 'alice', 'GemsMap', day);
    }
    for (let i = 0; i < 250; i++) {
      accounts.recordUsage(1, i % 2 === 0 ? 'alice' : 'bob', 'LookupSearch', day);
    }
    accounts.recordUsage(2, 'carol', 'GemsMap', day);
    expect(rowsOnDisk(dbPath)).toBe(0);
    expect(accounts.usageStats()).toEqual({ recorded: 1251, pendingRows: 4, flushes: 0, rowsWritten: 0 });

    expect(accounts.flushUsage()).toBe(4);
    expect(accounts.usageStats()).toEqual({ recorded: 1251, pendingRows: 0, flushes: 1, rowsWritten: 4 });
    expect(rowsOnDisk(dbPath)).toBe(4);
    // An empty flush runs no transaction.
    expect(accounts.flushUsage()).toBe(0);
    expect(accounts.usageStats().flushes).toBe(1);

    accounts.recordUsage(1, 'alice', 'GemsMap', day);
    accounts.recordUsage(1, 'alice', 'GemsMap', '2026-01-16');
    expect(accounts.fullUsageReport(1)).toEqual([
      { entityId: 1, userName: 'alice', operation: 'GemsMap', day, count: 1001 },
      { entityId: 1, userName: 'alice', operation: 'LookupSearch', day, count: 125 },
      { entityId: 1, userName: 'bob', operation: 'LookupSearch', day, count: 125 },
      { entityId: 1, userName: 'alice', operation: 'GemsMap', day: '2026-01-16', count: 1 },
    ]);
    expect(accounts.usageStats().flushes).toBe(2);
    expect(accounts.fullUsageReport(2)).toEqual([
      { entityId: 2, userName: 'carol', operation: 'GemsMap', day, count: 1 },
    ]);
    expect(accounts.fullUsageReport(3)).toEqual([]);
  });

  test('the timer flushes pending counts', ({ open, dbPath }) => {
    vi.useFakeTimers();
    const accounts = open({ usage: { flushIntervalMs: 1000 } });
    accounts.recordUsage(1, 'alice', 'Hello', '2026-01-15');
    accounts.recordUsage(1, 'alice', 'Hello', '2026-01-15');
    expect(rowsOnDisk(dbPath)).toBe(0);
    vi.advanceTimersByTime(1000);
    expect(rowsOnDisk(dbPath)).toBe(1);
    expect(accounts.usageStats()).toMatchObject({ flushes: 1, rowsWritten: 1 });
  });

  test('a full buffer flushes at once', ({ open, dbPath }) => {
    const accounts = open({ usage: { flushIntervalMs: 0, maxPendingRows: 3 } });
    accounts.recordUsage(1, 'a', 'Hello', '2026-01-15');
    accounts.recordUsage(1, 'b', 'Hello', '2026-01-15');
    expect(rowsOnDisk(dbPath)).toBe(0);
    accounts.recordUsage(1, 'c', 'Hello', '2026-01-15');
    expect(rowsOnDisk(dbPath)).toBe(3);
  });

  test('close() writes what is pending', ({ open, dbPath }) => {
    const accounts = open();
    accounts.recordUsage(1, 'alice', 'Hello', '2026-01-15');
    accounts.close();
    accounts.close();
    expect(rowsOnDisk(dbPath)).toBe(1);
  });

  test('usageDay is the UTC day', () => {
    expect(usageDay(Date.UTC(2026, 0, 15, 23, 59, 59, 999))).toBe('2026-01-15');
    expect(usageDay(Date.UTC(2026, 0, 16))).toBe('2026-01-16');
  });
});
