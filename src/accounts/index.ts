// The accounts module's public surface: openAccounts() over the application SQLite database (entities, API keys,
// signatures, sessions, favorites, usage counters, dashboard content), plus the pure pieces the HTTP layer uses
// directly (signable strings, the token bucket). Expected failures are returned as outcomes carrying wire error
// codes; nothing here logs, and no secret leaves except in the answer of createApiKey.
//
//   openAccounts(path) ── mkdir, open (WAL, synchronous=NORMAL, foreign keys) ── migrate ── purge old sessions
//        │                                                                         └─ load dashboard content (opt.)
//        └─> { createEntity … verifySignature, authenticate, checkSession … recordUsage … dashboard, close }
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ScrubberError } from '../errors.js';
import type {
  ApiKeyInfo,
  ApiKeyInput,
  CreatedApiKey,
  Dashboard,
  DashboardContent,
  EntityInput,
  EntityRecord,
  FavoriteAdd,
  FavoriteItem,
  FavoriteRemove,
  FolderCreate,
  FolderDelete,
  FolderItem,
  FolderRename,
  OpenedSession,
  Principal,
  SessionCheck,
  SignedRequest,
  UsageRow,
  UsageStats,
} from '../schemas/accounts.js';
import { apiKeyStore } from './api-keys.js';
import type { MemoryOptions } from './change-watch.js';
import { dashboardStore } from './dashboard.js';
import { entityStore } from './entities.js';
import { favoritesStore, type FavoritesOwner } from './favorites.js';
import { migrate } from './migrations.js';
import type { Outcome } from './outcomes.js';
import { sessionStore, type SessionOptions } from './sessions.js';
import { rememberingVerifier, type VerifyOptions } from './signature.js';
import { usageStore, type UsageOptions } from './usage.js';

export { checkUserName, MAX_USER_NAME } from './api-keys.js';
export type { MemoryOptions } from './change-watch.js';
export { readDashboardFile } from './dashboard.js';
export { checkEntityInput, MAX_ENTITY_NAME, type CheckedEntity } from './entities.js';
export type { FavoritesOwner } from './favorites.js';
export { LATEST_VERSION, migrate, migrations, schemaVersion, type Migration } from './migrations.js';
export { failure, invalid, invalidValue, notEmpty, success, type Outcome } from './outcomes.js';
export {
  createRateLimiter,
  RATE_LIMIT_DEFAULTS,
  takeToken,
  type RateDecision,
  type RateLimiter,
  type TokenBucket,
} from './rate-limit.js';
export { hashToken, SESSION_DEFAULTS, sessionAlive, type SessionOptions } from './sessions.js';
export {
  formatTimestampUtc,
  MAX_SKEW_MS,
  parseTimestamp,
  sign,
  signableString,
  sigStringBasic,
  verifySignature,
  type KeyForVerification,
  type VerifyOptions,
} from './signature.js';
export { usageDay, type UsageOptions } from './usage.js';

/** Options of {@link openAccounts}. */
export interface AccountsOptions {
  /** The clock for expiries, skew and creation times. @default () => new Date() */
  readonly now?: () => Date;
  /** Session lifetimes. */
  readonly session?: SessionOptions;
  /** Allowed signature clock skew. */
  readonly signature?: VerifyOptions;
  /** Usage buffering. */
  readonly usage?: UsageOptions;
  /**
   * How soon keys and sessions remembered by this connection notice a change made by another one (a revoke from
   * the keys CLI): `recheckMs`, 100 ms by default.
   */
  readonly memory?: MemoryOptions;
  /** Dashboard content to load at open, replacing what the database holds (see readDashboardFile). */
  readonly dashboard?: DashboardContent;
}

/** An open application database: a plain object of functions. */
export interface Accounts {
  /** Creates an entity: field errors (400), parent `NotFound` (404), name `Conflict` (409). */
  readonly createEntity: (input: EntityInput) => Outcome<EntityRecord>;
  readonly getEntity: (entityId: number) => EntityRecord | undefined;
  readonly listEntities: () => EntityRecord[];
  /** Whether `entityId` is `ancestorId` or below it. */
  readonly isWithinEntity: (entityId: number, ancestorId: number) => boolean;

  /** Issues a key; the answer is the only place its secret ever appears. */
  readonly createApiKey: (input: ApiKeyInput) => Outcome<CreatedApiKey>;
  /** Every key, revoked ones included; never secrets. */
  readonly listApiKeys: () => ApiKeyInfo[];
  readonly getApiKey: (apiKey: string) => ApiKeyInfo | undefined;
  /** Revokes a key and ends its sessions; revoking twice keeps the first time. */
  readonly revokeApiKey: (apiKey: string) => Outcome<ApiKeyInfo>;

  /** Checks the signed headers of a call: `InvalidSignature` or `SignatureExpired` (401) on failure. */
  readonly verifySignature: (request: SignedRequest) => Outcome<Principal>;
  /** `Authenticate`: verifies a signed call and opens a session. */
  readonly authenticate: (request: SignedRequest) => Outcome<OpenedSession>;
  /** Checks a session token, sliding its idle expiry when valid. */
  readonly checkSession: (svcToken: string) => SessionCheck;
  /** Deletes expired sessions; returns how many. */
  readonly purgeSessions: () => number;

  readonly folders: (owner: FavoritesOwner) => FolderItem[];
  /** Favorites in a folder (matched case-insensitively); an unknown folder has none. */
  readonly favoritesByFolder: (owner: FavoritesOwner, folderName: string) => FavoriteItem[];
  readonly addFavorite: (owner: FavoritesOwner, request: FavoriteAdd) => Outcome<FavoriteItem>;
  readonly removeFavorite: (owner: FavoritesOwner, request: FavoriteRemove) => Outcome<FavoriteItem>;
  readonly createFolder: (owner: FavoritesOwner, request: FolderCreate) => Outcome<FolderItem>;
  readonly renameFolder: (owner: FavoritesOwner, request: FolderRename) => Outcome<FolderItem>;
  readonly deleteFolder: (owner: FavoritesOwner, request: FolderDelete) => Outcome<FolderItem>;

  /** Counts one call in memory; written by the next flush. `day` is `usageDay(ms)`. */
  readonly recordUsage: (entityId: number, userName: string, operation: string, day: string) => void;
  /** Writes pending counts in one transaction; returns the rows written. */
  readonly flushUsage: () => number;
  /** The usage rows of an entity, pending counts included. */
  readonly fullUsageReport: (entityId: number) => UsageRow[];
  readonly usageStats: () => UsageStats;

  /** Replaces the dashboard content. */
  readonly loadDashboard: (content: DashboardContent) => void;
  /** The dashboard, dates as epoch milliseconds. */
  readonly dashboard: () => Dashboard;

  /** Flushes usage, stops the timer and closes the database. Idempotent. */
  readonly close: () => void;
}

/**
 * Opens (creating when missing) and migrates the application database.
 * @param path - the database file, normally `Config.appDb`; its folder is created; `:memory:` works for tests
 * @param options - clock, lifetimes, usage buffering, dashboard content
 * @throws ScrubberError `APP_DB` when the file is not a database or was written by a newer program
 */
export function openAccounts(path: string, options: AccountsOptions = {}): Accounts {
  const now = options.now ?? ((): Date => new Date());

  // Open: a new file is made owner-only, since it will hold API secrets (see api-keys.ts).
  const inMemory = path === ':memory:' || path === '';
  const isNew = !inMemory && !existsSync(path);
  if (!inMemory) {
    mkdirSync(dirname(path), { recursive: true });
  }
  let opened: Database.Database | undefined;
  let db: Database.Database;
  try {
    db = opened = new Database(path);
    if (isNew) {
      chmodSync(path, 0o600);
    }
    // WAL with synchronous=NORMAL: commits append to the log without an fsync; durability is per checkpoint.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, undefined, now);
  } catch (err) {
    opened?.close();
    if (err instanceof ScrubberError) {
      throw err;
    }
    throw new ScrubberError('APP_DB', `cannot open the application database ${path}: ${String(err)}`, { cause: err });
  }

  // Stores, each a set of prepared statements over the one connection.
  const entities = entityStore(db, now);
  const keys = apiKeyStore(db, entities, now, options.memory);
  const sessions = sessionStore(db, now, options.session, options.memory);
  const favorites = favoritesStore(db);
  const usage = usageStore(db, options.usage);
  const content = dashboardStore(db);
  sessions.purgeSessions();
  if (options.dashboard !== undefined) {
    content.loadDashboard(options.dashboard);
  }

  const verifier = rememberingVerifier(keys.keyForVerification, options.signature);
  const verify = (request: SignedRequest): Outcome<Principal> => verifier(request, now().getTime());
  let open = true;

  return {
    createEntity: entities.createEntity,
    getEntity: entities.getEntity,
    listEntities: entities.listEntities,
    isWithinEntity: entities.isWithinEntity,
    createApiKey: keys.createApiKey,
    listApiKeys: keys.listApiKeys,
    getApiKey: keys.getApiKey,
    revokeApiKey(apiKey) {
      const revoked = keys.revokeApiKey(apiKey);
      sessions.forgetSessions(); // the revoke ended the key's sessions through this connection
      return revoked;
    },
    verifySignature: verify,
    authenticate(request) {
      const caller = verify(request);
      return caller.ok ? { ok: true, value: sessions.openSession(caller.value) } : caller;
    },
    checkSession: sessions.checkSession,
    purgeSessions: sessions.purgeSessions,
    folders: favorites.folders,
    favoritesByFolder: favorites.favoritesByFolder,
    addFavorite: favorites.addFavorite,
    removeFavorite: favorites.removeFavorite,
    createFolder: favorites.createFolder,
    renameFolder: favorites.renameFolder,
    deleteFolder: favorites.deleteFolder,
    recordUsage: usage.recordUsage,
    flushUsage: usage.flushUsage,
    fullUsageReport: usage.fullUsageReport,
    usageStats: usage.usageStats,
    loadDashboard: content.loadDashboard,
    dashboard: content.dashboard,
    close() {
      if (!open) {
        return;
      }
      open = false;
      try {
        usage.stop();
      } finally {
        db.close();
      }
    },
  };
}
