// What the hot paths remember (verified keys, open sessions) must be forgotten when another connection — the keys
// CLI, another server on the same file — commits a change. SQLite's `PRAGMA data_version` moves on every such
// commit, but reading it takes the WAL read locks (fcntl calls, ~6 us under load: a third of a whole Hello call),
// so a watch reads it at most once per `recheckMs` of monotonic time. A change made by another process is therefore
// seen within `recheckMs`; changes made through the same connection are the caller's to forget at once.
import type Database from 'better-sqlite3';

/** How stale remembered rows may get. */
export interface MemoryOptions {
  /**
   * The longest time a change committed by another connection (a revoke from the keys CLI, say) can go unnoticed.
   * @default 100
   */
  readonly recheckMs?: number;
}

/**
 * Watches a database for commits made by other connections.
 * @param db - the connection
 * @param options - how often data_version is read at most
 * @param clock - monotonic milliseconds @default performance.now
 * @returns a function answering whether another connection committed since the last time it answered true (or
 *   since the watch began); it reads data_version only when `recheckMs` passed since its last read
 */
export function changeWatch(
  db: Database.Database,
  options: MemoryOptions = {},
  clock: () => number = () => performance.now(),
): () => boolean {
  const recheckMs = options.recheckMs ?? 100;
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seen = dataVersion.get() as number;
  let checkedAt = clock();
  return () => {
    const t = clock();
    if (t - checkedAt < recheckMs) {
      return false;
    }
    checkedAt = t;
    const version = dataVersion.get() as number;
    if (version === seen) {
      return false;
    }
    seen = version;
    return true;
  };
}
