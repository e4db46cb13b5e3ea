// CheckSession: whether a token is valid, from the svcToken field or the X-Svc-Token header; public; JSON, CSV, XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
let svcToken = '';
beforeAll(async () => {
  s = await startSignedServer();
  const opened = await s.fetch('/json/reply/Authenticate', { method: 'POST' });
  svcToken = ((await opened.json()) as { svcToken: string }).svcToken;
});
afterAll(async () => {
  await s.close();
});

describe('CheckSession', () => {
  test('answers true for an open session, from the field or the header, and echoes the request', async () => {
    const byField = await fetch(`${s.base}/json/reply/CheckSession`, {
      method: 'POST',
      body: JSON.stringify({ svcToken }),
    });
    expect(await byField.json()).toEqual({ isValidSession: true, request: { svcToken }, responseStatus: {} });
    const byHeader = await fetch(`${s.base}/json/reply/CheckSession`, { headers: { 'X-Svc-Token': svcToken } });
    expect(await byHeader.json()).toEqual({ isValidSession: true, request: {}, responseStatus: {} });
  });

  test('answers false with 200 for an unknown token or none', async () => {
    const unknown = await fetch(`${s.base}/json/reply/CheckSession?svcToken=nope`);
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ isValidSession: false });
    expect(await (await fetch(`${s.base}/json/reply/CheckSession`)).json()).toMatchObject({ isValidSession: false });
  });

  test('answers in CSV and XML', async () => {
    expect(await (await fetch(`${s.base}/csv/reply/CheckSession?svcToken=nope`)).text()).toBe(
      'isValidSession,request.svcToken\r\nfalse,nope\r\n',
    );
    const xml = await (
      await fetch(`${s.base}/xml/reply/CheckSession`, { headers: { 'X-Svc-Token': svcToken } })
    ).text();
    expect(xml).toContain('<IsValidSession>true</IsValidSession><Request><SvcToken i:nil="true"/></Request>');
  });
});
