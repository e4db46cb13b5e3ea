// Accounts test helpers: a settable clock, and a vitest fixture giving each test a fresh application database in
// its own temporary folder (closed after the test).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'vitest';
import {
  openAccounts,
  sign,
  signableString,
  formatTimestampUtc,
  type Accounts,
  type AccountsOptions,
} from '../../src/accounts/index.js';
import type { CreatedApiKey, SignedRequest } from '../../src/schemas/accounts.js';

/** A clock tests move by hand. */
export interface Clock {
  readonly now: () => Date;
  readonly ms: () => number;
  set(ms: number): void;
  advance(ms: number): void;
}

/** 2026-01-15T12:00:00.000Z, the default start of a test clock. */
export const T0 = Date.UTC(2026, 0, 15, 12, 0, 0);

export function fakeClock(start = T0): Clock {
  let at = start;
  return {
    now: () => new Date(at),
    ms: () => at,
    set(ms) {
      at = ms;
    },
    advance(ms) {
      at += ms;
    },
  };
}

/** A path for an application database in a fresh temporary folder. */
export async function tempAppDbPath(prefix = 'accounts-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return join(dir, 'app.sqlite');
}

/** Signs a call as a client would: headers for `apiKey`/`userName` at `atMs`. */
export function signedHeaders(apiKey: string, userName: string, secret: string, atMs: number): SignedRequest {
  const timestamp = formatTimestampUtc(atMs);
  return { apiKey, userName, timestamp, signature: sign(secret, signableString(apiKey, userName, timestamp)) };
}

export interface AccountsFixture {
  clock: Clock;
  dbPath: string;
  /** Opens the fixture database with the fixture clock (usage timer off unless given). */
  open: (options?: AccountsOptions) => Accounts;
  /** The database opened with defaults. */
  accounts: Accounts;
}

export const accountsTest = test.extend<AccountsFixture>({
  clock: async ({}, use) => {
    await use(fakeClock());
  },
  dbPath: async ({}, use) => {
    await use(await tempAppDbPath());
  },
  open: async ({ clock, dbPath }, use) => {
    const opened: Accounts[] = [];
    await use((options = {}) => {
      const a = openAccounts(dbPath, { now: clock.now, usage: { flushIntervalMs: 0 }, ...options });
      opened.push(a);
      return a;
    });
    for (const a of opened) {
      a.close();
    }
  },
  accounts: async ({ open }, use) => {
    await use(open());
  },
});

/** Issues a key, failing the test when it cannot. */
export function issueKey(accounts: Accounts, userName: string, entityId?: number): CreatedApiKey {
  const created = accounts.createApiKey(entityId === undefined ? { userName } : { userName, entityId });
  if (!created.ok) {
    throw new Error(`createApiKey failed: ${created.message}`);
  }
  return created.value;
}
