// API keys: issue, list, revoke, and the lookup that signature verification uses.
//
// About the secret, honestly: HMAC verification recomputes the signature, so the server must hold the secret
// itself; a one-way hash (as for passwords) cannot work. The secret is therefore stored as issued, in plain text,
// in the application database. Encryption at rest is out of scope for now: whoever can read the database file can
// sign as any key, so the file is created readable by its owner only (0600) and belongs on a protected disk. The
// secret leaves this module exactly once, in the answer of `createApiKey`; listings, outcomes and messages never
// carry it, and nothing here logs.
import type Database from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { ApiKeyInfo, ApiKeyInput, CreatedApiKey } from '../schemas/accounts.js';
import { changeWatch, type MemoryOptions } from './change-watch.js';
import type { EntityStore } from './entities.js';
import { failure, invalid, invalidValue, notEmpty, success, type Outcome } from './outcomes.js';
import type { KeyForVerification } from './signature.js';

/** The longest user name accepted. */
export const MAX_USER_NAME = 128;

/**
 * Checks a user name: required, at most {@link MAX_USER_NAME} characters, no control characters (the signable
 * string is newline-separated, so a newline in a name would make two different calls sign the same text).
 * @param userName - the name as given
 * @param fieldName - the field to name in the error @default 'userName'
 * @returns the trimmed name, or a field-level outcome
 */
export function checkUserName(userName: string, fieldName = 'userName'): Outcome<string> {
  const name = userName.trim();
  if (name === '') {
    return invalid([notEmpty(fieldName)]);
  }
  if (name.length > MAX_USER_NAME || /\p{Cc}/u.test(name)) {
    return invalid([invalidValue(fieldName, name.slice(0, 40).replace(/\p{Cc}/gu, '?'))]);
  }
  return success(name);
}

/** Keys remembered for signature checks before the memory is dropped and refilled. */
const MAX_REMEMBERED_KEYS = 10_000;

/** A new key id: public, `ak_` and 16 base64url characters (96 random bits). */
export function newApiKeyId(): string {
  return `ak_${randomBytes(12).toString('base64url')}`;
}

/** A new secret: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

interface KeyRow {
  api_key: string;
  user_name: string;
  entity_id: number;
  created_at: number;
  revoked_at: number | null;
}

function toInfo(row: KeyRow): ApiKeyInfo {
  return {
    apiKey: row.api_key,
    userName: row.user_name,
    entityId: row.entity_id,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

/** The API key functions of an open application database. */
export interface ApiKeyStore {
  readonly createApiKey: (input: ApiKeyInput) => Outcome<CreatedApiKey>;
  readonly listApiKeys: () => ApiKeyInfo[];
  readonly getApiKey: (apiKey: string) => ApiKeyInfo | undefined;
  readonly revokeApiKey: (apiKey: string) => Outcome<ApiKeyInfo>;
  readonly keyForVerification: (apiKey: string) => KeyForVerification | undefined;
}

/**
 * Prepares the API key statements of a database.
 * @param db - the migrated application database
 * @param entities - the entity store (a key without an entity gets a new top-level one)
 * @param now - the clock
 * @param memory - how soon a change made by another connection is seen
 */
export function apiKeyStore(
  db: Database.Database,
  entities: EntityStore,
  now: () => Date,
  memory: MemoryOptions = {},
): ApiKeyStore {
  // Listing statements name their columns: `secret` is read by keyForVerification only.
  const columns = 'api_key, user_name, entity_id, created_at, revoked_at';
  const list = db.prepare(`SELECT ${columns} FROM api_key ORDER BY created_at, api_key`);
  const one = db.prepare(`SELECT ${columns} FROM api_key WHERE api_key = ?`);
  const forVerification = db.prepare('SELECT secret, user_name, entity_id, revoked_at FROM api_key WHERE api_key = ?');
  const insert = db.prepare(
    'INSERT INTO api_key (api_key, secret, user_name, entity_id, created_at) VALUES (?, ?, ?, ?, ?)',
  );
  const revoke = db.prepare('UPDATE api_key SET revoked_at = ? WHERE api_key = ? AND revoked_at IS NULL');
  const endSessions = db.prepare('DELETE FROM session WHERE api_key = ?');
  const changed = changeWatch(db, memory);
  const verified = new Map<string, KeyForVerification>();

  const getApiKey = (apiKey: string): ApiKeyInfo | undefined => {
    const row = one.get(apiKey) as KeyRow | undefined;
    return row === undefined ? undefined : toInfo(row);
  };

  const create = db.transaction((userName: string, entityId: number | undefined): Outcome<CreatedApiKey> => {
    const apiKey = newApiKeyId();
    let owner = entityId;
    if (owner === undefined) {
      // A fresh top-level entity; the key id in its name keeps it unique whatever the user name.
      const entity = entities.createEntity({ entityName: `${userName} (${apiKey})` });
      if (!entity.ok) {
        return entity;
      }
      owner = entity.value.entityId;
    } else if (entities.getEntity(owner) === undefined) {
      return failure('NotFound', `Entity ${owner} does not exist.`);
    }
    const secret = newSecret();
    insert.run(apiKey, secret, userName, owner, now().getTime());
    return success({ apiKey, secret, entityId: owner });
  });

  const revokeTx = db.transaction((apiKey: string): Outcome<ApiKeyInfo> => {
    const existing = getApiKey(apiKey);
    if (existing === undefined) {
      return failure('NotFound', `API key '${apiKey}' does not exist.`);
    }
    revoke.run(now().getTime(), apiKey);
    verified.delete(apiKey);
    endSessions.run(apiKey);
    const after = getApiKey(apiKey);
    return after === undefined ? failure('NotFound', `API key '${apiKey}' does not exist.`) : success(after);
  });

  return {
    createApiKey(input) {
      const name = checkUserName(input.userName);
      return name.ok ? create.immediate(name.value, input.entityId) : name;
    },
    listApiKeys: () => (list.all() as KeyRow[]).map(toInfo),
    getApiKey,
    revokeApiKey: (apiKey) => revokeTx.immediate(apiKey),
    keyForVerification(apiKey) {
      // Every signed request looks its key up. Known keys are remembered; the memory is dropped when another
      // connection (the keys CLI, another server) committed anything, which is seen within `recheckMs` (100 ms),
      // and a revoke made through this connection forgets the key at once. Unknown keys are never remembered
      // (random keys cannot fill the memory).
      if (changed() || verified.size >= MAX_REMEMBERED_KEYS) {
        verified.clear();
      }
      const known = verified.get(apiKey);
      if (known !== undefined) {
        return known;
      }
      const row = forVerification.get(apiKey) as
        { secret: string; user_name: string; entity_id: number; revoked_at: number | null } | undefined;
      if (row === undefined) {
        return undefined;
      }
      const key = { secret: row.secret, userName: row.user_name, entityId: row.entity_id, revoked: row.revoked_at !== null };
      verified.set(apiKey, key);
      return key;
    },
  };
}
