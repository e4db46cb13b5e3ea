// Sessions: `Authenticate` turns one verified signature into an `svcToken` that later calls carry instead of
// signing. The token is 32 random bytes (base64url) handed out once; only its SHA-256 is stored, so a copy of the
// database opens no session. A session ends 30 minutes after its last use (sliding) or 12 hours after it was opened
// (absolute), whichever comes first, and when its key is revoked.
import type Database from 'better-sqlite3';
import { createHash, randomBytes } from 'node:crypto';
import type { OpenedSession, Principal, SessionCheck } from '../schemas/accounts.js';
import { changeWatch, type MemoryOptions } from './change-watch.js';

/** Open sessions remembered before the memory is dropped and refilled. */
const MAX_REMEMBERED_SESSIONS = 10_000;

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
  /** Drops what this store remembers; for changes made through the same connection (a revoke ends sessions). */
  readonly forgetSessions: () => void;
}

/** A session as remembered between calls. */
interface RememberedSession {
  readonly hash: Buffer;
  readonly createdAt: number;
  lastSeenAt: number;
  readonly principal: Principal;
}

/**
 * Prepares the session statements of a database.
 * @param db - the migrated application database
 * @param now - the clock
 * @param options - lifetimes
 * @param memory - how soon a change made by another connection is seen
 */
export function sessionStore(
  db: Database.Database,
  now: () => Date,
  options: SessionOptions = {},
  memory: MemoryOptions = {},
): SessionStore {
  const idleMs = options.idleMs ?? SESSION_DEFAULTS.idleMs;
  const absoluteMs = options.absoluteMs ?? SESSION_DEFAULTS.absoluteMs;
  const touchMs = options.touchMs ?? SESSION_DEFAULTS.touchMs;
  const insert = db.prepare('INSERT INTO session (token_hash, api_key, created_at, last_seen_at) VALUES (?, ?, ?, ?)');
  const find = db.prepare(`SELECT s.created_at, s.last_seen_at, k.api_key, k.user_name, k.entity_id
    FROM session s JOIN api_key k ON k.api_key = s.api_key AND k.revoked_at IS NULL WHERE s.token_hash = ?`);
  const touch = db.prepare('UPDATE session SET last_seen_at = ? WHERE token_hash = ?');
  const purge = db.prepare('DELETE FROM session WHERE last_seen_at < ? OR created_at < ?');
  // Sessions in use are remembered by token, so a call costs neither the SHA-256 nor the join. The memory is dropped
  // when another connection commits (a revoke from the keys CLI, another server moving last_seen_at), seen within
  // `recheckMs`, and by forgetSessions() for changes through this connection. Unknown tokens are never remembered.
  const changed = changeWatch(db, memory);
  const remembered = new Map<string, RememberedSession>();

  return {
    openSession(principal) {
      const svcToken = randomBytes(32).toString('base64url');
      const at = now().getTime();
      insert.run(hashToken(svcToken), principal.apiKey, at, at);
      return { svcToken, principal, idleExpiresAt: at + idleMs, expiresAt: at + absoluteMs };
    },
    checkSession(svcToken) {
      if (changed() || remembered.size >= MAX_REMEMBERED_SESSIONS) {
        remembered.clear();
      }
      let session = remembered.get(svcToken);
      if (session === undefined) {
        const hash = hashToken(svcToken);
        const row = find.get(hash) as
          | { created_at: number; last_seen_at: number; api_key: string; user_name: string; entity_id: number }
          | undefined;
        if (row === undefined) {
          return { valid: false, reason: 'unknown' };
        }
        session = {
          hash,
          createdAt: row.created_at,
          lastSeenAt: row.last_seen_at,
          principal: { apiKey: row.api_key, entityId: row.entity_id, userName: row.user_name },
        };
        remembered.set(svcToken, session);
      }
      const at = now().getTime();
      if (!sessionAlive(session.createdAt, session.lastSeenAt, at, { idleMs, absoluteMs })) {
        // Kept until purgeSessions, so a client asking again still hears "expired" rather than "unknown".
        return { valid: false, reason: 'expired' };
      }
      if (at - session.lastSeenAt >= touchMs) {
        touch.run(at, session.hash);
        session.lastSeenAt = at;
      }
      return { valid: true, principal: session.principal };
    },
    purgeSessions() {
      const at = now().getTime();
      remembered.clear();
      return purge.run(at - idleMs, at - absoluteMs).changes;
    },
    forgetSessions() {
      remembered.clear();
    },
  };
}
