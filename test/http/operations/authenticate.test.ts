// Authenticate (ext): a signed call opens a session and returns its svcToken, in JSON, CSV and XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { T0 } from '../../helpers/accounts.js';
import { signed, startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
const now = (): Date => new Date(T0);
beforeAll(async () => {
  s = await startSignedServer({ deps: { now }, accounts: { now } });
});
afterAll(async () => {
  await s.close();
});

describe('Authenticate', () => {
  test('answers a token usable as X-Svc-Token, with the caller and the expiries (JSON)', async () => {
    const res = await fetch(`${s.base}/json/reply/Authenticate`, {
      method: 'POST',
      headers: signed(s.key, 'alice', T0),
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      svcToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as unknown,
      userName: 'alice',
      entityId: s.key.entityId,
      idleExpiresAt: '2026-01-15T12:30:00.000Z',
      expiresAt: '2026-01-16T00:00:00.000Z',
      responseStatus: {},
    });
    const check = await fetch(`${s.base}/json/reply/CheckSession`, {
      headers: { 'X-Svc-Token': String(body['svcToken']) },
    });
    expect(await check.json()).toMatchObject({ isValidSession: true });
  });

  test('answers in CSV and XML', async () => {
    const csv = await fetch(`${s.base}/csv/reply/Authenticate`, { headers: signed(s.key, 'alice', T0) });
    const [header, row] = (await csv.text()).split('\r\n');
    expect(header).toBe('svcToken,userName,entityId,idleExpiresAt,expiresAt');
    expect(row).toMatch(/^[A-Za-z0-9_-]{43},alice,\d+,2026-01-15T12:30:00.000Z,2026-01-16T00:00:00.000Z$/);
    const xml = await (await fetch(`${s.base}/xml/reply/Authenticate`, { headers: signed(s.key, 'alice', T0) })).text();
    expect(xml).toMatch(
      /<AuthenticateResponse [^>]*><EntityId>\d+<\/EntityId><ExpiresAt>2026-01-16T00:00:00.000Z<\/ExpiresAt>/,
    );
    expect(xml).toMatch(/<SvcToken>[A-Za-z0-9_-]{43}<\/SvcToken><UserName>alice<\/UserName><\/AuthenticateResponse>$/);
  });

  test('needs the signed headers', async () => {
    const res = await fetch(`${s.base}/json/reply/Authenticate`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ responseStatus: { errorCode: 'Unauthorized' } });
  });
});
