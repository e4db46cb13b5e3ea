// Sessions opened by Authenticate: the token is returned once and stored only as its SHA-256; a session ends after
// 30 idle minutes (sliding with use) or 12 hours in all, and when its key is revoked.
import Database from 'better-sqlite3';
import { describe, expect } from 'vitest';
import { hashToken } from '../../src/accounts/index.js';
import { accountsTest as test, issueKey, signedHeaders } from '../helpers/accounts.js';

const MIN = 60_000;

describe('authenticate and checkSession', () => {
  test('a verified signature opens a session; only the token hash is stored', ({ accounts, clock, dbPath }) => {
    const { apiKey, secret, entityId } = issueKey(accounts, 'alice');
    const opened = accounts.authenticate(signedHeaders(apiKey, 'alice', secret, clock.ms()));
    if (!opened.ok) {
      throw new Error(opened.message);
    }
    const { svcToken } = opened.value;
    expect(svcToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(opened.value).toMatchObject({
      principal: { apiKey, entityId, userName: 'alice' },
      idleExpiresAt: clock.ms() + 30 * MIN,
      expiresAt: clock.ms() + 12 * 60 * MIN,
    });
    expect(accounts.checkSession(svcToken)).toEqual({
      valid: true,
      principal: { apiKey, entityId, userName: 'alice' },
    });

    const db = new Database(dbPath, { readonly: true });
    const rows = db.prepare('SELECT token_hash FROM session').all() as { token_hash: Buffer }[];
    db.close();
    expect(rows).toEqual([{ token_hash: hashToken(svcToken) }]);
  });

  test('a bad signature opens nothing', ({ accounts, clock }) => {
    const { apiKey } = issueKey(accounts, 'alice');
    expect(accounts.authenticate(signedHeaders(apiKey, 'alice', 'wrong secret', clock.ms()))).toMatchObject({
      ok: false,
      errorCode: 'InvalidSignature',
    });
  });

  test('an unknown token is invalid', ({ accounts }) => {
    expect(accounts.checkSession('no-such-token')).toEqual({ valid: false, reason: 'unknown' });
  });

  test('idle expiry slides with use: 30 idle minutes end it', ({ accounts, clock }) => {
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const opened = accounts.authenticate(signedHeaders(apiKey, 'alice', secret, clock.ms()));
    const token = opened.ok ? opened.value.svcToken : '';
    for (let i = 0; i < 4; i++) {
      clock.advance(29 * MIN);
      expect(accounts.checkSession(token).valid).toBe(true);
    }
    clock.advance(30 * MIN + 1);
    expect(accounts.checkSession(token)).toEqual({ valid: false, reason: 'expired' });
    // Still expired, not unknown, when asked again.
    expect(accounts.checkSession(token)).toEqual({ valid: false, reason: 'expired' });
  });

  test('absolute expiry: 12 hours end a session however busy', ({ accounts, clock }) => {
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const opened = accounts.authenticate(signedHeaders(apiKey, 'alice', secret, clock.ms()));
    const token = opened.ok ? opened.value.svcToken : '';
    const start = clock.ms();
    while (clock.ms() + 20 * MIN <= start + 12 * 60 * MIN) {
      clock.advance(20 * MIN);
      expect(accounts.checkSession(token).valid).toBe(true);
    }
    clock.set(start + 12 * 60 * MIN + 1);
    expect(accounts.checkSession(token)).toEqual({ valid: false, reason: 'expired' });
  });

  test('lifetimes are options', ({ open, clock }) => {
    const accounts = open({ session: { idleMs: 5 * MIN, absoluteMs: 60 * MIN, touchMs: 0 } });
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const opened = accounts.authenticate(signedHeaders(apiKey, 'alice', secret, clock.ms()));
    const token = opened.ok ? opened.value.svcToken : '';
    clock.advance(5 * MIN + 1);
    expect(accounts.checkSession(token).valid).toBe(false);
  });

  test('revoking the key ends its sessions; purgeSessions drops expired ones', ({ accounts, clock }) => {
    const alice = issueKey(accounts, 'alice');
    const bob = issueKey(accounts, 'bob');
    const a = accounts.authenticate(signedHeaders(alice.apiKey, 'alice', alice.secret, clock.ms()));
    const b = accounts.authenticate(signedHeaders(bob.apiKey, 'bob', bob.secret, clock.ms()));
    accounts.revokeApiKey(alice.apiKey);
    expect(accounts.checkSession(a.ok ? a.value.svcToken : '')).toEqual({ valid: false, reason: 'unknown' });
    expect(accounts.purgeSessions()).toBe(0);
    clock.advance(31 * MIN);
    expect(accounts.purgeSessions()).toBe(1);
    expect(accounts.checkSession(b.ok ? b.value.svcToken : '')).toEqual({ valid: false, reason: 'unknown' });
  });

  test('a session in use is remembered; a revoke from another connection ends it once data_version is read', ({
    open,
    clock,
  }) => {
    const accounts = open({ memory: { recheckMs: 0 } });
    const alice = issueKey(accounts, 'alice');
    const opened = accounts.authenticate(signedHeaders(alice.apiKey, 'alice', alice.secret, clock.ms()));
    const token = opened.ok ? opened.value.svcToken : '';
    expect(accounts.checkSession(token).valid).toBe(true);
    expect(accounts.checkSession(token).valid).toBe(true);
    expect(open().revokeApiKey(alice.apiKey).ok).toBe(true);
    expect(accounts.checkSession(token)).toEqual({ valid: false, reason: 'unknown' });
  });

  test('another server using the same session moves its idle window for this one too', ({ open, clock }) => {
    const accounts = open({ memory: { recheckMs: 0 } });
    const other = open();
    const alice = issueKey(accounts, 'alice');
    const opened = accounts.authenticate(signedHeaders(alice.apiKey, 'alice', alice.secret, clock.ms()));
    const token = opened.ok ? opened.value.svcToken : '';
    expect(accounts.checkSession(token).valid).toBe(true); // remembered here with last use at T0
    clock.advance(20 * MIN);
    expect(other.checkSession(token).valid).toBe(true); // written there: last use T0 + 20 min
    clock.advance(20 * MIN); // 40 minutes after the use this connection remembers, 20 after the other's
    expect(accounts.checkSession(token).valid).toBe(true);
  });
});
