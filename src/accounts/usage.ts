// Usage counting: every authenticated call adds one to (entity, user, operation, UTC day). Calls are counted in
// memory and written in batches, one transaction per flush, on a timer, when the buffer grows large, and on
// flush()/close(): a request never waits for a disk write.
//
//   recordUsage ──> Map<row key, count> ──(timer | maxPendingRows | flush | close)──> one transaction of upserts
//
// A crash loses at most one interval of counts; that is the price of not writing per request.
import type Database from 'better-sqlite3';
import type { UsageRow, UsageStats } from '../schemas/accounts.js';

/** Buffering of usage counts. */
export interface UsageOptions {
  /** Time between timed flushes; 0 turns the timer off (flush() and close() still write). @default 5000 */
  readonly flushIntervalMs?: number;
  /** A flush happens at once when this many distinct rows are waiting. @default 10000 */
  readonly maxPendingRows?: number;
  /** Told when a timed flush fails (the counts stay pending for the next one); the server logs it. */
  readonly onFlushError?: (err: unknown) => void;
}

/**
 * The UTC day of a moment, `yyyy-MM-dd`, as usage rows are keyed.
 * @param ms - epoch milliseconds
 */
export function usageDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The usage functions of an open application database. */
export interface UsageStore {
  readonly recordUsage: (entityId: number, userName: string, operation: string, day: string) => void;
  readonly flushUsage: () => number;
  readonly fullUsageReport: (entityId: number) => UsageRow[];
  readonly usageStats: () => UsageStats;
  /** Stops the timer and writes what is pending. */
  readonly stop: () => void;
}

interface Pending {
  readonly entityId: number;
  readonly userName: string;
  readonly operation: string;
  readonly day: string;
  count: number;
}

/**
 * Prepares the usage buffer of a database and starts its flush timer (unref'd: it never keeps a process alive).
 * @param db - the migrated application database
 * @param options - buffering
 */
export function usageStore(db: Database.Database, options: UsageOptions = {}): UsageStore {
  const flushIntervalMs = options.flushIntervalMs ?? 5000;
  const maxPendingRows = options.maxPendingRows ?? 10_000;
  const upsert = db.prepare(`INSERT INTO usage (entity_id, user_name, operation, day, count) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (entity_id, user_name, operation, day) DO UPDATE SET count = count + excluded.count`);
  const report = db.prepare(`SELECT entity_id AS entityId, user_name AS userName, operation, day, count
    FROM usage WHERE entity_id = ? ORDER BY day, user_name, operation`);
  let pending = new Map<string, Pending>();
  const stats = { recorded: 0, flushes: 0, rowsWritten: 0 };

  const write = db.transaction((rows: readonly Pending[]) => {
    for (const r of rows) {
      upsert.run(r.entityId, r.userName, r.operation, r.day, r.count);
    }
  });

  const flushUsage = (): number => {
    if (pending.size === 0) {
      return 0;
    }
    const rows = pending;
    pending = new Map();
    try {
      write.immediate([...rows.values()]);
    } catch (err) {
      // The transaction rolled back: put the counts back (adding what arrived meanwhile) for the next flush.
      for (const [key, row] of rows) {
        const newer = pending.get(key);
        if (newer !== undefined) {
          row.count += newer.count;
        }
        pending.set(key, row);
      }
      throw err;
    }
    stats.flushes += 1;
    stats.rowsWritten += rows.size;
    return rows.size;
  };

  const timedFlush = (): void => {
    try {
      flushUsage();
    } catch (err) {
      options.onFlushError?.(err);
    }
  };
  const timer = flushIntervalMs > 0 ? setInterval(timedFlush, flushIntervalMs) : undefined;
  timer?.unref();

  return {
    recordUsage(entityId, userName, operation, day) {
      const key = `${entityId}\u0000${userName}\u0000${operation}\u0000${day}`;
      const row = pending.get(key);
      if (row === undefined) {
        pending.set(key, { entityId, userName, operation, day, count: 1 });
      } else {
        row.count += 1;
      }
      stats.recorded += 1;
      if (pending.size >= maxPendingRows) {
        flushUsage();
      }
    },
    flushUsage,
    fullUsageReport(entityId) {
      flushUsage();
      return report.all(entityId) as UsageRow[];
    },
    usageStats: () => ({ ...stats, pendingRows: pending.size }),
    stop() {
      if (timer !== undefined) {
        clearInterval(timer);
      }
      flushUsage();
    },
  };
}
