// Secrets and signatures never leave the accounts module except in the answer of createApiKey: not in listings,
// outcomes, sessions, messages, nor anything a failed verification returns; and the module writes nothing anywhere
// (test/setup.ts fails any test that writes to the console; stdout and stderr are watched here too).
import { afterEach, beforeEach, describe, expect, vi } from 'vitest';
import { accountsTest as test, issueKey, signedHeaders } from '../helpers/accounts.js';

const written: string[] = [];

beforeEach(() => {
  written.length = 0;
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('no secret leaves the module', () => {
  test('only createApiKey returns the secret; nothing else returns it or the signature', ({ accounts, clock }) => {
    const created = issueKey(accounts, 'alice');
    const { apiKey, secret } = created;
    const good = signedHeaders(apiKey, 'alice', secret, clock.ms());
    const returned: unknown[] = [
      accounts.listApiKeys(),
      accounts.getApiKey(apiKey),
      accounts.listEntities(),
      accounts.verifySignature(good),
      accounts.verifySignature({ ...good, signature: signedHeaders(apiKey, 'alice', 'x', clock.ms()).signature }),
      accounts.verifySignature({ ...good, timestamp: new Date(clock.ms() - 3_600_000).toISOString() }),
      accounts.verifySignature({ ...good, apiKey: 'ak_unknown' }),
      accounts.authenticate({ ...good, signature: `${good.signature.slice(0, -4)}AAA=` }),
    ];
    const session = accounts.authenticate(good);
    returned.push(session);
    if (session.ok) {
      returned.push(accounts.checkSession(session.value.svcToken));
    }
    returned.push(accounts.revokeApiKey(apiKey), accounts.verifySignature(good), accounts.listApiKeys());

    const text = JSON.stringify(returned);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(good.signature);
    // Not even inside a listed key object under another name.
    for (const k of accounts.listApiKeys()) {
      expect(Object.keys(k).sort()).toEqual(['apiKey', 'createdAt', 'entityId', 'revokedAt', 'userName']);
    }
    expect(written).toEqual([]);
  });

  test('the accounts object exposes no way to read a secret back', ({ accounts }) => {
    const { apiKey, secret } = issueKey(accounts, 'alice');
    const readers = Object.entries(accounts).filter(([, f]) => typeof f === 'function');
    expect(readers.map(([name]) => name)).not.toContain('keyForVerification');
    expect(
      JSON.stringify([accounts.getApiKey(apiKey), accounts.listApiKeys(), accounts.fullUsageReport(1)]),
    ).not.toContain(secret);
  });
});
