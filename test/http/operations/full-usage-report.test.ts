// FullUsageReport (ext rows): the usage rows of the caller's entity, in JSON, CSV (list mode) and XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { T0 } from '../../helpers/accounts.js';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
const now = (): Date => new Date(T0);
beforeAll(async () => {
  s = await startSignedServer({ deps: { now }, accounts: { now } });
  s.accounts.recordUsage(s.key.entityId, 'alice', 'GemsMap', '2026-01-14');
  s.accounts.recordUsage(s.key.entityId + 1000, 'mallory', 'GemsMap', '2026-01-14');
});
afterAll(async () => {
  await s.close();
});

describe('FullUsageReport', () => {
  test('lists the caller’s entity’s counts, this call included once it has been answered (JSON)', async () => {
    const e = s.key.entityId;
    expect(await (await s.fetch('/json/reply/FullUsageReport')).json()).toEqual({
      result: [{ entityId: e, userName: 'alice', operation: 'GemsMap', day: '2026-01-14', count: 1 }],
      responseStatus: {},
    });
    const again = (await (await s.fetch('/json/reply/FullUsageReport')).json()) as { result: unknown[] };
    expect(again.result).toContainEqual({
      entityId: e,
      userName: 'alice',
      operation: 'FullUsageReport',
      day: '2026-01-15',
      count: 1,
    });
  });

  test('answers in CSV (one row per count) and XML', async () => {
    const csv = await (await s.fetch('/csv/reply/FullUsageReport')).text();
    const e = String(s.key.entityId);
    expect(csv.startsWith(`entityId,userName,operation,day,count\r\n${e},alice,GemsMap,2026-01-14,1\r\n`)).toBe(true);
    const xml = await (await s.fetch('/xml/reply/FullUsageReport')).text();
    expect(xml).toContain(
      `<Result><UsageRow><Count>1</Count><Day>2026-01-14T00:00:00</Day><EntityId>${e}</EntityId><Operation>GemsMap</Operation><UserName>alice</UserName></UsageRow>`,
    );
  });
});
