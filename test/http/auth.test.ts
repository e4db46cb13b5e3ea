// Authentication, throttling and usage counting on a real server (issue 3 §3 and §5, wire.md §9 and the §14 rows
// "throttling" and "auth failures"): signed headers, session tokens, 401 codes that never tell whether a key exists,
// 403 outside the caller's organisation, --no-auth, 429 with Retry-After, usage counted per call, and no credential
// in any log line.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { createRateLimiter, MAX_SKEW_MS } from '../../src/accounts/index.js';
import { createLogger } from '../../src/log.js';
import { fakeClock, issueKey, T0 } from '../helpers/accounts.js';
import { signed, startServer, startSignedServer, type TestServer } from './helpers.js';

type Envelope = { responseStatus: { errorCode?: string; message?: string; errors?: unknown[] } };

const started: TestServer[] = [];
afterEach(async () => {
  for (const s of started.splice(0)) {
    await s.close();
  }
});

/** An auth-on server whose clock (and its database's) stands at T0 until moved. */
async function clocked(
  options: Parameters<typeof startSignedServer>[0] = {},
): Promise<Awaited<ReturnType<typeof startSignedServer>> & { clock: ReturnType<typeof fakeClock> }> {
  const clock = fakeClock();
  const s = await startSignedServer({
    ...options,
    accounts: { now: clock.now },
    deps: { now: clock.now, ...options.deps },
  });
  started.push(s);
  return { ...s, clock };
}

async function post(
  base: string,
  path: string,
  headers: Record<string, string>,
  body: unknown = {},
): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

async function envelope(res: Response): Promise<Envelope> {
  return (await res.json()) as Envelope;
}

describe('signed requests', () => {
  test('a correct signature passes and the call acts for the key’s entity', async () => {
    const s = await clocked();
    const res = await post(s.base, '/json/reply/Entity', signed(s.key, 'alice', T0), { entityName: 'Clinic A' });
    expect(res.status).toBe(200);
    const { entityId } = (await res.json()) as { entityId: number };
    expect(s.accounts.getEntity(entityId)?.parentEntityId).toBe(s.key.entityId);
  });

  test('a tampered signature, user or key fails with InvalidSignature', async () => {
    const s = await clocked();
    const good = signed(s.key, 'alice', T0);
    const sig = good['X-Api-Signature'] ?? '';
    const flipped = `${sig.charAt(0) === 'A' ? 'B' : 'A'}${sig.slice(1)}`;
    for (const headers of [
      { ...good, 'X-Api-Signature': flipped },
      { ...good, 'X-Api-User': 'mallory' },
      { ...good, 'X-Api-Timestamp': new Date(T0 + 1000).toISOString() },
      { ...good, 'X-Api-Signature': 'not base64 at all' },
    ]) {
      const res = await post(s.base, '/json/reply/FavoritesFolders', headers);
      expect(res.status).toBe(401);
      expect((await envelope(res)).responseStatus).toEqual({
        errorCode: 'InvalidSignature',
        message: 'The request signature is invalid.',
        errors: [],
      });
    }
  });

  test('a timestamp more than 5 minutes old or ahead fails with SignatureExpired; within 5 minutes passes', async () => {
    const s = await clocked();
    const stale = await post(s.base, '/json/reply/FavoritesFolders', signed(s.key, 'alice', T0 - MAX_SKEW_MS - 1000));
    expect(stale.status).toBe(401);
    expect((await envelope(stale)).responseStatus.errorCode).toBe('SignatureExpired');
    const future = await post(s.base, '/json/reply/FavoritesFolders', signed(s.key, 'alice', T0 + MAX_SKEW_MS + 1000));
    expect(future.status).toBe(401);
    expect((await envelope(future)).responseStatus.errorCode).toBe('SignatureExpired');
    const late = await post(s.base, '/json/reply/FavoritesFolders', signed(s.key, 'alice', T0 - MAX_SKEW_MS + 1000));
    expect(late.status).toBe(200);
  });

  test('a revoked key fails exactly like a key that never existed', async () => {
    const s = await clocked();
    const other = issueKey(s.accounts, 'bob');
    expect(s.accounts.revokeApiKey(other.apiKey).ok).toBe(true);
    const revoked = await post(s.base, '/json/reply/FavoritesFolders', signed(other, 'bob', T0));
    const unknown = await post(
      s.base,
      '/json/reply/FavoritesFolders',
      signed({ ...other, apiKey: 'ak_doesNotExist0000' }, 'bob', T0),
    );
    expect(revoked.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await revoked.text()).toBe(await unknown.text());
  });

  test('no credentials, or a signature without its other headers, is 401 Unauthorized', async () => {
    const s = await clocked();
    const none = await post(s.base, '/json/reply/Entity', {}, { entityName: 'X' });
    expect(none.status).toBe(401);
    expect((await envelope(none)).responseStatus).toMatchObject({ errorCode: 'Unauthorized', errors: [] });
    const partial = signed(s.key, 'alice', T0);
    delete partial['X-Api-User'];
    const res = await post(s.base, '/json/reply/Entity', partial, { entityName: 'X' });
    expect(res.status).toBe(401);
    expect((await envelope(res)).responseStatus.message).toContain('X-Api-User');
    expect(s.accounts.listEntities()).toHaveLength(1); // nothing was created
  });

  test('failures are answered in the negotiated format', async () => {
    const s = await clocked();
    const xml = await fetch(`${s.base}/xml/reply/FavoritesFolders`);
    expect(xml.status).toBe(401);
    expect(await xml.text()).toContain('<ResponseStatus><s:ErrorCode>Unauthorized</s:ErrorCode>');
    const csv = await fetch(`${s.base}/csv/reply/FavoritesFolders`);
    expect(csv.status).toBe(401);
    expect((await csv.text()).split('\r\n')[1]).toMatch(/^Unauthorized,/);
  });

  test('public operations and the metadata pages need no credentials', async () => {
    const s = await clocked();
    for (const path of [
      '/json/reply/Hello?worldParam=w',
      '/json/reply/Demo',
      '/sigStringBasic?apiKey=k&userName=u',
      '/json/reply/CheckSession',
      '/metadata',
      '/openapi',
    ]) {
      expect((await fetch(`${s.base}${path}`)).status, path).toBe(200);
    }
  });

  test('a parent entity outside the caller’s organisation is 403 Forbidden', async () => {
    const s = await clocked();
    const stranger = issueKey(s.accounts, 'eve'); // a key of another top-level entity
    const res = await post(s.base, '/json/reply/Entity', signed(s.key, 'alice', T0), {
      entityName: 'Intruder',
      parentEntityId: stranger.entityId,
    });
    expect(res.status).toBe(403);
    expect((await envelope(res)).responseStatus.errorCode).toBe('Forbidden');
  });
});

describe('sessions', () => {
  test('Authenticate turns a signed call into an svcToken, sent as X-Svc-Token or ?svcToken=', async () => {
    const s = await clocked();
    const auth = await post(s.base, '/json/reply/Authenticate', signed(s.key, 'alice', T0));
    expect(auth.status).toBe(200);
    const session = (await auth.json()) as { svcToken: string; userName: string; entityId: number; expiresAt: string };
    expect(session).toMatchObject({
      userName: 'alice',
      entityId: s.key.entityId,
      expiresAt: '2026-01-16T00:00:00.000Z',
    });
    const viaHeader = await post(
      s.base,
      '/json/reply/FolderCreate',
      { 'X-Svc-Token': session.svcToken },
      { folderName: 'Cardiology' },
    );
    expect(viaHeader.status).toBe(200);
    const viaQuery = await fetch(
      `${s.base}/json/reply/FavoritesFolders?svcToken=${encodeURIComponent(session.svcToken)}`,
    );
    expect(await viaQuery.json()).toEqual({ result: [{ folderId: 1, folderName: 'Cardiology' }], responseStatus: {} });
  });

  test('Authenticate without a valid signature opens nothing', async () => {
    const s = await clocked();
    const none = await post(s.base, '/json/reply/Authenticate', {});
    expect(none.status).toBe(401);
    expect((await envelope(none)).responseStatus.errorCode).toBe('Unauthorized');
    const stale = await post(s.base, '/json/reply/Authenticate', signed(s.key, 'alice', T0 - 10 * 60_000));
    expect((await envelope(stale)).responseStatus.errorCode).toBe('SignatureExpired');
  });

  test('a session expires after 30 idle minutes: SessionExpired, and CheckSession answers false', async () => {
    const s = await clocked();
    const { svcToken } = (await (
      await post(s.base, '/json/reply/Authenticate', signed(s.key, 'alice', T0))
    ).json()) as {
      svcToken: string;
    };
    const check = async (): Promise<boolean> =>
      ((await (await post(s.base, '/json/reply/CheckSession', {}, { svcToken })).json()) as { isValidSession: boolean })
        .isValidSession;
    expect(await check()).toBe(true);
    s.clock.advance(29 * 60_000);
    expect((await post(s.base, '/json/reply/FavoritesFolders', { 'X-Svc-Token': svcToken })).status).toBe(200);
    s.clock.advance(31 * 60_000); // 31 minutes after the last use
    const expired = await post(s.base, '/json/reply/FavoritesFolders', { 'X-Svc-Token': svcToken });
    expect(expired.status).toBe(401);
    expect((await envelope(expired)).responseStatus.errorCode).toBe('SessionExpired');
    expect(await check()).toBe(false);
  });

  test('an unknown token, or the token of a revoked key, is 401 Unauthorized', async () => {
    const s = await clocked();
    const { svcToken } = (await (
      await post(s.base, '/json/reply/Authenticate', signed(s.key, 'alice', T0))
    ).json()) as {
      svcToken: string;
    };
    const unknown = await post(s.base, '/json/reply/FavoritesFolders', { 'X-Svc-Token': 'x'.repeat(43) });
    expect((await envelope(unknown)).responseStatus.errorCode).toBe('Unauthorized');
    s.accounts.revokeApiKey(s.key.apiKey);
    const revoked = await post(s.base, '/json/reply/FavoritesFolders', { 'X-Svc-Token': svcToken });
    expect(revoked.status).toBe(401);
    expect((await envelope(revoked)).responseStatus.errorCode).toBe('Unauthorized');
  });
});

describe('--no-auth', () => {
  test('skips the checks, logs one warning at start, and still names callers that sign', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done): void {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const s = await startServer({ http: { auth: false }, deps: { log: pino({ level: 'info' }, sink) } });
    started.push(s);
    const warnings = lines.filter((l) => l.includes('authentication is off'));
    expect(warnings).toHaveLength(1);
    expect(JSON.parse(warnings[0] ?? '{}')).toMatchObject({ level: 40, component: 'http' });

    const open = await post(s.base, '/json/reply/Entity', {}, { entityName: 'Anyone' });
    expect(open.status).toBe(200);
    // Favorites belong to a user: without credentials there is none, even with checks off.
    const anonymous = await post(s.base, '/json/reply/FavoritesFolders', {});
    expect(anonymous.status).toBe(401);
    expect((await envelope(anonymous)).responseStatus.message).toContain('acts for a user');
    const key = issueKey(s.accounts, 'carol');
    const named = await post(s.base, '/json/reply/FolderCreate', signed(key, 'carol'), { folderName: 'Mine' });
    expect(named.status).toBe(200);
    // A bad signature is not rejected with checks off: the call simply has no caller.
    const bad = await post(
      s.base,
      '/json/reply/Entity',
      { ...signed(key, 'carol'), 'X-Api-Signature': 'AAAA' },
      {
        entityName: 'Still fine',
      },
    );
    expect(bad.status).toBe(200);
    expect(lines.filter((l) => l.includes('authentication is off'))).toHaveLength(1);
  });
});

describe('rate limit', () => {
  test('answers 429 TooManyRequests with Retry-After once the key’s bucket is empty, per key', async () => {
    const bucketClock = fakeClock();
    const limiter = createRateLimiter({ perSecond: 0.5, burst: 3 }, bucketClock.ms);
    const s = await clocked({ deps: { rateLimiter: limiter } });
    const headers = signed(s.key, 'alice', T0);
    for (let i = 0; i < 3; i++) {
      expect((await post(s.base, '/json/reply/FavoritesFolders', headers)).status).toBe(200);
    }
    const throttled = await post(s.base, '/json/reply/FavoritesFolders', headers);
    expect(throttled.status).toBe(429);
    expect(throttled.headers.get('retry-after')).toBe('2');
    expect((await envelope(throttled)).responseStatus).toEqual({
      errorCode: 'TooManyRequests',
      message: 'Too many requests; retry after 2 seconds.',
      errors: [],
    });
    // Another key has its own bucket; public operations are not throttled.
    const other = issueKey(s.accounts, 'bob');
    expect((await post(s.base, '/json/reply/FavoritesFolders', signed(other, 'bob', T0))).status).toBe(200);
    expect((await fetch(`${s.base}/json/reply/Hello?worldParam=w`)).status).toBe(200);
    bucketClock.advance(2000);
    expect((await post(s.base, '/json/reply/FavoritesFolders', headers)).status).toBe(200);
    // The throttled call was not counted: 3 + 1 served calls.
    const rows = s.accounts.fullUsageReport(s.key.entityId).filter((r) => r.userName === 'alice');
    expect(rows).toEqual([
      { entityId: s.key.entityId, userName: 'alice', operation: 'FavoritesFolders', day: '2026-01-15', count: 4 },
    ]);
  });
});

describe('usage', () => {
  test('every authenticated call is counted per user, operation and day, failures included', async () => {
    const s = await clocked();
    const headers = signed(s.key, 'alice', T0);
    await post(s.base, '/json/reply/FolderCreate', headers, { folderName: 'A' });
    await post(s.base, '/json/reply/FolderCreate', headers, { folderName: 'A' }); // 409, still counted
    await post(s.base, '/json/reply/FavoritesFolders', headers);
    await fetch(`${s.base}/json/reply/Hello?worldParam=w`, { headers }); // public: not counted
    await post(s.base, '/json/reply/FavoritesFolders', {}); // no caller: not counted
    s.clock.advance(24 * 3_600_000);
    await post(s.base, '/json/reply/FavoritesFolders', signed(s.key, 'alice', s.clock.ms()));
    const report = await post(s.base, '/json/reply/FullUsageReport', signed(s.key, 'alice', s.clock.ms()));
    const { result } = (await report.json()) as { result: unknown[] };
    const e = s.key.entityId;
    expect(result).toEqual([
      { entityId: e, userName: 'alice', operation: 'FavoritesFolders', day: '2026-01-15', count: 1 },
      { entityId: e, userName: 'alice', operation: 'FolderCreate', day: '2026-01-15', count: 2 },
      { entityId: e, userName: 'alice', operation: 'FavoritesFolders', day: '2026-01-16', count: 1 },
    ]);
  });

  test('Authenticate is counted; a report shows only the caller’s entity', async () => {
    const s = await clocked();
    const other = issueKey(s.accounts, 'bob');
    await post(s.base, '/json/reply/FavoritesFolders', signed(other, 'bob', T0));
    await post(s.base, '/json/reply/Authenticate', signed(s.key, 'alice', T0));
    const { result } = (await (
      await post(s.base, '/json/reply/FullUsageReport', signed(s.key, 'alice', T0))
    ).json()) as {
      result: { userName: string; operation: string }[];
    };
    expect(result.map((r) => `${r.userName}:${r.operation}`)).toEqual(['alice:Authenticate']);
  });
});

describe('logs', () => {
  test('never carry a secret, a signature or a session token, whatever happens to the call', async () => {
    let text = '';
    const sink = new Writable({
      write(chunk: Buffer, _enc, done): void {
        text += chunk.toString('utf8');
        done();
      },
    });
    const s = await clocked({ deps: { log: createLogger({ logLevel: 'trace' }, sink) } });
    const good = signed(s.key, 'alice', T0);
    const { svcToken } = (await (await post(s.base, '/json/reply/Authenticate', good)).json()) as { svcToken: string };
    await post(s.base, '/json/reply/FavoritesFolders', {
      ...good,
      'X-Api-Signature': `${good['X-Api-Signature'] ?? ''}x`,
    });
    await post(s.base, '/json/reply/FavoritesFolders', { 'X-Svc-Token': svcToken }, { zzz: 1 });
    await fetch(`${s.base}/json/reply/FavoritesFolders?svcToken=${svcToken}&unknownField=1`);
    await post(s.base, '/json/reply/FavoriteAdd', good, { folderName: '', label: 'x', value: 'y' });
    expect(text).toContain('"level":20'); // debug lines were written
    expect(text).not.toContain(s.key.secret);
    expect(text).not.toContain(good['X-Api-Signature']);
    expect(text).not.toContain(svcToken);
  });
});
