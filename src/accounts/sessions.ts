// Sessions: `Authenticate` turns one verified signature into an `svcToken` that later calls carry instead of
// signing. The token is 32 random bytes (base64url) handed out once; only its SHA-256 is stored, so a copy of the
// database opens no session. A session ends 30 minutes after its last use (sliding) or 12 hours after it was opened
// (absolute), whichever comes first, and when its key is revoked.
import type Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import type { OpenedSession, Principal, SessionCheck } from '../schemas/accounts.js';

/** Session lifetimes. */
export interface SessionOptions {
  /** Idle expiry, sliding with each use. @default 1800000 (30 minutes) */
  readonly idleMs?: number;
  /** Absolute expiry from opening. @default 43200000 (12 hours) */
  readonly absoluteMs?: number;
  /**
   * A use moves the stored last-use time only when it is at least this old, so a busy session writes at most once
   * a minute instead of once a request; the idle window is therefore between `idleMs - touchMs` and `idleMs`.
   * @default 60000
   */
  readonly touchMs?: number;
}

/** Defaults of {@link SessionOptions}. */
export const SESSION_DEFAULTS = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000, touchMs: 60_000 } as const;

/**
 * The stored form of a token.
 * @param svcToken - the token as the client holds it
 */
export function hashToken(svcToken: string): Buffer {
  return createHash('sha256').update(svcToken, 'utf8').digest();
}

/**
 * Whether a session is still open at `nowMs`. Pure.
 * @param createdAt - when it was opened, epoch ms
 * @param lastSeenAt - its last recorded use, epoch ms
 * @param nowMs - the clock
 * @param options - lifetimes
 */
export function sessionAlive(
  createdAt: number,
  lastSeenAt: number,
  nowMs: number,
  options: Required<Omit<SessionOptions, 'touchMs'>>,
): boolean {
  return nowMs - lastSeenAt <= options.idleMs && nowMs - createdAt <= options.absoluteMs;
}

/** The session functions of an open application database. */
export interface SessionStore {
  readonly openSession: (principal: Principal) => OpenedSession;
  readonly checkSession: (svcToken: string) => SessionCheck;
  readonly purgeSessions: () => number;
}

/**
 * Prepares the session statements of a database.
 * @param db - the migrated application database
 * @param now - the clock
 * @param options - lifetimes
 */
export function sessionStore(db: Database.Database, now: () => Date, options: SessionOptions = {}): SessionStore {
  const idleMs = options.idleMs ?? SESSION_DEFAULTS.idleMs;
  const absoluteMs = options.absoluteMs ?? SESSION_DEFAULTS.absoluteMs;
  const touchMs = options.touchMs ?? SESSION_DEFAULTS.touchMs;
  const insert = db.prepare('INSERT INTO session (token_hash, api_key, created_at, last_seen_at) VALUES (?, ?, ?, ?)');
  const find = db.prepare(`SELECT s.created_at, s.last_seen_at, k.api_key, k.user_name, k.entity_id
    FROM session s JOIN api_key k ON k.api_key = s.api_key AND k.revoked_at IS NULL WHERE s.token_hash = ?`);
  const touch = db.prepare('UPDATE session SET last_seen_at = ? WHERE token_hash = ?');
  const purge = db.prepare('DELETE FROM session WHERE last_seen_at < ? OR created_at < ?');

  return {
    openSession(principal) {
      const svcToken = randomBytes(32).toString('base64url');
      const at = now().getTime();
      insert.run(hashToken(svcToken), principal.apiKey, at, at);
      return { svcToken, principal, idleExpiresAt: at + idleMs, expiresAt: at + absoluteMs };
    },
    checkSession(svcToken) {
      const hash = hashToken(svcToken);
      const row = find.get(hash) as
        { created_at: number; last_seen_at: number; api_key: string; user_name: string; entity_id: number } | undefined;
      if (row === undefined) {
        return { valid: false, reason: 'unknown' };
      }
      const at = now().getTime();
      if (!sessionAlive(row.created_at, row.last_seen_at, at, { idleMs, absoluteMs })) {
        // Kept until purgeSessions, so a client asking again still hears "expired" rather than "unknown".
        return { valid: false, reason: 'expired' };
      }
      if (at - row.last_seen_at >= touchMs) {
        touch.run(at, hash);
      }
      return { valid: true, principal: { apiKey: row.api_key, entityId: row.entity_id, userName: row.user_name } };
    },
    purgeSessions() {
      const at = now().getTime();
      return purge.run(at - idleMs, at - absoluteMs).changes;
    },
  };
}
