// SigStringBasic: the signable string and normalised timestamp, on `/sigStringBasic` (any verb) and the predefined
// routes, in JSON, CSV and XML; public. Its answer, signed with the secret, authenticates a call.
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { T0 } from '../../helpers/accounts.js';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
beforeAll(async () => {
  s = await startSignedServer({ deps: { now: () => new Date(T0) }, accounts: { now: () => new Date(T0) } });
});
afterAll(async () => {
  await s.close();
});

describe('SigStringBasic', () => {
  test('joins apiKey, userName and the UTC timestamp with newlines; timeStampIso8601 wins over timeStamp', async () => {
    const res = await fetch(
      `${s.base}/sigStringBasic?apiKey=ak_1&userName=alice&timeStampIso8601=2025-01-02T03:04:05%2B01:00&timeStamp=2020-01-01T00:00:00Z`,
    );
    expect(await res.text()).toBe(
      '{"request":{"apiKey":"ak_1","timeStampIso8601":"2025-01-02T03:04:05+01:00","timeStamp":"2020-01-01T00:00:00Z","userName":"alice"},' +
        '"timeStampUtc":"2025-01-02T02:04:05.000Z","signableString":"ak_1\\nalice\\n2025-01-02T02:04:05.000Z","responseStatus":{}}',
    );
  });

  test('takes timeStamp in the wire form /Date(ms+hhmm)/, and now when no timestamp is given', async () => {
    const wcf = await fetch(`${s.base}/sigStringBasic`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiKey: 'k', userName: 'u', timeStamp: '\\/Date(1700000000000+0000)\\/' }),
    });
    expect(await wcf.json()).toMatchObject({ timeStampUtc: '2023-11-14T22:13:20.000Z' });
    const now = await fetch(`${s.base}/sigStringBasic?apiKey=k&userName=u`, { method: 'DELETE' });
    expect(await now.json()).toMatchObject({
      timeStampUtc: '2026-01-15T12:00:00.000Z',
      signableString: 'k\nu\n2026-01-15T12:00:00.000Z',
    });
  });

  test('an unreadable timestamp is 400 InvalidValue on its field', async () => {
    const res = await fetch(`${s.base}/json/reply/SigStringBasic?timeStampIso8601=yesterday`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      responseStatus: { errorCode: 'InvalidValue', errors: [{ fieldName: 'timeStampIso8601' }] },
    });
    const wrongType = await fetch(`${s.base}/json/reply/SigStringBasic?timeStamp=soon`);
    expect(await wrongType.json()).toMatchObject({ responseStatus: { errors: [{ fieldName: 'timeStamp' }] } });
  });

  test('answers in CSV and XML', async () => {
    const csv = await fetch(`${s.base}/csv/reply/SigStringBasic`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'apiKey=k&userName=u&timeStampIso8601=2025-01-02T00:00:00Z',
    });
    expect(await csv.text()).toBe(
      'request.apiKey,request.timeStampIso8601,request.timeStamp,request.userName,timeStampUtc,signableString\r\n' +
        'k,2025-01-02T00:00:00Z,,u,2025-01-02T00:00:00.000Z,"k\nu\n2025-01-02T00:00:00.000Z"\r\n',
    );
    const xml = await (await fetch(`${s.base}/xml/reply/SigStringBasic?apiKey=k&userName=u`)).text();
    expect(xml).toContain('<SignableString>k\nu\n2026-01-15T12:00:00.000Z</SignableString>');
    expect(xml).toContain('<TimeStampUtc>2026-01-15T12:00:00.000Z</TimeStampUtc>');
  });

  test('its signableString and timeStampUtc, signed with the secret, authenticate a call', async () => {
    const q = new URLSearchParams({ apiKey: s.key.apiKey, userName: s.userName });
    const { signableString, timeStampUtc } = (await (await fetch(`${s.base}/sigStringBasic?${q.toString()}`)).json()) as {
      signableString: string;
      timeStampUtc: string;
    };
    const signature = createHmac('sha256', s.key.secret).update(signableString).digest('base64');
    const res = await fetch(`${s.base}/json/reply/FavoritesFolders`, {
      headers: {
        'X-Api-Key': s.key.apiKey,
        'X-Api-User': s.userName,
        'X-Api-Timestamp': timeStampUtc,
        'X-Api-Signature': signature,
      },
    });
    expect(res.status).toBe(200);
  });
});
