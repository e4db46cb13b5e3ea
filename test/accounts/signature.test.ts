// Signed calls (operations.md, SigStringBasic): a correct signature passes; a tampered one, a stale or
// future-dated one, and one made with a revoked or unknown key fail, the last two with the same outcome.
import { describe, expect } from 'vitest';
import { MAX_SKEW_MS, sign, signableString, verifySignature } from '../../src/accounts/index.js';
import { accountsTest as test, issueKey, signedHeaders, T0 } from '../helpers/accounts.js';

const INVALID = { ok: false, errorCode: 'InvalidSignature', message: 'The request signature is invalid.', errors: [] };

describe('verifySignature', () => {
  test('a correct signature identifies the caller', ({ accounts, clock }) => {
    const { apiKey, secret, entityId } = issueKey(accounts, 'alice');
    expect(accounts.verifySignature(signedHeaders(apiKey, 'alice', secret, clock.ms()))).toEqual({
      ok: true,
      value: { apiKey, entityId, userName: 'alice' },
    });
    // Within the window either way.
    expect(accounts.verifySignature(signedHeaders(apiKey, 'alice', secret, clock.ms() - MAX_SKEW_MS)).ok).toBe(true);
    expect(accounts.verifySignature(signedHeaders(apiKey, 'alice', secret, clock.ms() + MAX_SKEW_MS)).ok).toBe(true);
  });

  test('a tampered signature, timestamp or user fails with InvalidSignature', ({ accounts, clock }) => {
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const good = signedHeaders(apiKey, 'alice', secret, clock.ms());
    const flipped = Buffer.from(good.signature, 'base64');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(accounts.verifySignature({ ...good, signature: flipped.toString('base64') })).toEqual(INVALID);
    expect(accounts.verifySignature({ ...good, signature: good.signature.slice(0, 20) })).toEqual(INVALID);
    expect(accounts.verifySignature({ ...good, signature: '' })).toEqual(INVALID);
    expect(accounts.verifySignature({ ...good, timestamp: new Date(clock.ms() + 1000).toISOString() })).toEqual(
      INVALID,
    );
    // Signed correctly, but as a user the key was not issued to.
    expect(accounts.verifySignature(signedHeaders(apiKey, 'mallory', secret, clock.ms()))).toEqual(INVALID);
    expect(accounts.verifySignature({ ...good, timestamp: 'yesterday' })).toEqual(INVALID);
  });

  test('a stale (over 5 min) or future-dated signature fails with SignatureExpired', ({ accounts, clock }) => {
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const stale = accounts.verifySignature(signedHeaders(apiKey, 'alice', secret, clock.ms() - MAX_SKEW_MS - 1));
    const future = accounts.verifySignature(signedHeaders(apiKey, 'alice', secret, clock.ms() + MAX_SKEW_MS + 1));
    for (const r of [stale, future]) {
      expect(r).toMatchObject({ ok: false, errorCode: 'SignatureExpired', errors: [] });
    }
    // The same headers pass once the server clock is near them again.
    clock.advance(-MAX_SKEW_MS);
    expect(accounts.verifySignature(signedHeaders(apiKey, 'alice', secret, clock.ms() - 1000)).ok).toBe(true);
  });

  test('a revoked key fails exactly like an unknown key', ({ accounts, clock }) => {
    const { apiKey, secret } = issueKey(accounts, 'alice');
    expect(accounts.revokeApiKey(apiKey).ok).toBe(true);
    const revoked = accounts.verifySignature(signedHeaders(apiKey, 'alice', secret, clock.ms()));
    const unknown = accounts.verifySignature(signedHeaders('ak_doesnotexist0000', 'alice', secret, clock.ms()));
    expect(revoked).toEqual(INVALID);
    expect(unknown).toEqual(revoked);
  });

  test('a key revoked from another connection (the keys CLI) fails once data_version is read again, though it was just used', ({
    open,
    clock,
  }) => {
    const accounts = open({ memory: { recheckMs: 0 } }); // data_version read on every call
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const headers = signedHeaders(apiKey, 'alice', secret, clock.ms());
    // Used twice, so the serving connection remembers the key and the signature.
    expect(accounts.verifySignature(headers).ok).toBe(true);
    expect(accounts.verifySignature(headers).ok).toBe(true);
    const cli = open();
    expect(cli.revokeApiKey(apiKey).ok).toBe(true);
    expect(accounts.verifySignature(headers)).toEqual(INVALID);
    expect(accounts.verifySignature(signedHeaders(apiKey, 'alice', secret, clock.ms() + 1))).toEqual(INVALID);
  });

  test('with the default memory, a revoke from another connection takes effect within 100 ms', async ({
    accounts,
    open,
    clock,
  }) => {
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const headers = signedHeaders(apiKey, 'alice', secret, clock.ms());
    expect(accounts.verifySignature(headers).ok).toBe(true);
    expect(open().revokeApiKey(apiKey).ok).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(accounts.verifySignature(headers)).toEqual(INVALID);
  });

  test('a remembered signature: a revoke through the same connection fails the very next call', ({ accounts, clock }) => {
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const headers = signedHeaders(apiKey, 'alice', secret, clock.ms());
    expect(accounts.verifySignature(headers).ok).toBe(true);
    expect(accounts.verifySignature(headers).ok).toBe(true);
    expect(accounts.revokeApiKey(apiKey).ok).toBe(true);
    expect(accounts.verifySignature(headers)).toEqual(INVALID);
  });

  test('a remembered signature expires with its timestamp like any other', ({ accounts, clock }) => {
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const headers = signedHeaders(apiKey, 'alice', secret, clock.ms());
    expect(accounts.verifySignature(headers).ok).toBe(true);
    clock.advance(MAX_SKEW_MS);
    expect(accounts.verifySignature(headers).ok).toBe(true);
    clock.advance(1);
    expect(accounts.verifySignature(headers)).toMatchObject({ ok: false, errorCode: 'SignatureExpired' });
    // A tampered copy of a remembered signature is still checked in full.
    clock.advance(-1);
    expect(accounts.verifySignature({ ...headers, userName: 'mallory' })).toEqual(INVALID);
  });

  test('the timestamp is normalised to yyyy-MM-ddTHH:mm:ss.fffZ before signing', () => {
    const lookup = (): { secret: string; userName: string; entityId: number; revoked: boolean } => ({
      secret: 's3cret',
      userName: 'u',
      entityId: 1,
      revoked: false,
    });
    const signature = sign('s3cret', signableString('ak_x', 'u', '2026-01-15T12:00:00.000Z'));
    for (const timestamp of ['2026-01-15T12:00:00.000Z', '2026-01-15T12:00:00Z', '2026-01-15T07:00:00-05:00']) {
      expect(verifySignature({ apiKey: 'ak_x', userName: 'u', timestamp, signature }, lookup, T0).ok).toBe(true);
    }
  });
});
