// buildServer(): never listens by itself, refuses bad declarations, keeps serving after bad input, and shuts down
// gracefully (in-flight requests finish, new connections are refused).
import { z } from 'zod';
import { pino } from 'pino';
import { afterAll, describe, expect, test } from 'vitest';
import { openAccounts } from '../../src/accounts/index.js';
import { buildServer } from '../../src/http/server.js';
import { defineOperation } from '../../src/http/wire/operation.js';
import { responseOf } from '../../src/http/wire/response-status.js';
import { hello } from '../../src/http/operations/hello.js';
import { startServer, testHttpConfig } from './helpers.js';
import { slow, testOperations } from './test-operations.js';

const log = pino({ level: 'silent' });
const accounts = openAccounts(':memory:', { usage: { flushIntervalMs: 0 } });
const config = { http: testHttpConfig(), resourcesDir: 'data/resources' };
afterAll(() => accounts.close());

describe('buildServer', () => {
  test('returns a server that is not listening', () => {
    const wire = buildServer(config, { log, accounts });
    expect(wire.server.listening).toBe(false);
    expect(wire.operations.map((o) => o.name)).toEqual([
      'Hello',
      'Demo',
      'SigStringBasic',
      'Authenticate',
      'CheckSession',
      'Entity',
      'Dashboard',
      'ResourceRequest',
      'FavoritesFolders',
      'FavoritesByFolder',
      'FavoriteAdd',
      'FavoriteRemove',
      'FolderCreate',
      'FolderRename',
      'FolderDelete',
      'FullUsageReport',
      'SnomedMap',
      'GemsMap',
      'ProprietaryMap',
      'PrimaryLookup',
      'ProcedureCodeItemData',
      'CodeDetails',
      'CodeValidate',
      'CciMueCheck',
      'LookupSearch',
      'SearchSuggestions',
      'CodeInstruction',
      'ConceptInformation',
      'DocumentV2',
    ]);
  });

  test('refuses two operations with the same name and malformed routes', () => {
    expect(() => buildServer(config, { log, accounts, operations: [hello, hello] })).toThrow(/registered twice/);
    const Bad = z.object({}).meta({ id: 'ProbeBadRoute' });
    const op = defineOperation({
      name: 'ProbeBadRoute',
      request: Bad,
      response: responseOf('ProbeBadRouteResponse', {}),
      routes: [{ path: '/x/{Name*}/y', verbs: 'any' }],
      handler: () => ({}),
    });
    expect(() => buildServer(config, { log, accounts, operations: [op] })).toThrow(/must be the last segment/);
  });

  test('defineOperation checks ids, responseStatus and the CSV list path', () => {
    const Req = z.object({}).meta({ id: 'ProbeCheck' });
    const Res = responseOf('ProbeCheckResponse', { result: z.array(z.object({ a: z.string() })) });
    expect(() =>
      defineOperation({ name: 'Other', request: Req, response: Res, handler: () => ({ result: [] }) }),
    ).toThrow(/request schema id must be "Other"/);
    expect(() =>
      defineOperation({
        name: 'ProbeCheck',
        request: Req,
        response: z.object({}).meta({ id: 'ProbeCheckResponse2' }),
        handler: () => ({}),
      }),
    ).toThrow(/response schema id/);
    expect(() =>
      defineOperation({ name: 'ProbeCheck', request: Req, response: Res, handler: () => ({ result: [] }) }),
    ).toThrow(/list items need a schema id/);
    const OkReq = z.object({}).meta({ id: 'ProbeCheckOk' });
    const Ok = responseOf('ProbeCheckOkResponse', { count: z.number() });
    expect(() =>
      defineOperation({
        name: 'ProbeCheckOk',
        request: OkReq,
        response: Ok,
        csvListPath: ['count'],
        handler: () => ({ count: 0 }),
      }),
    ).toThrow(/csvListPath count is not a list of objects/);
    expect(
      defineOperation({ name: 'ProbeCheckOk', request: OkReq, response: Ok, handler: () => ({ count: 0 }) }).name,
    ).toBe('ProbeCheckOk');
  });
});

describe('graceful shutdown', () => {
  test('finishes in-flight requests, then refuses new connections', async () => {
    const s = await startServer({ deps: { operations: testOperations } });
    const started = slow.started;
    const inFlight = fetch(`${s.base}/json/reply/ProbeSlow`);
    while (slow.started === started) {
      await new Promise((r) => setTimeout(r, 5));
    }
    const closed = s.wire.shutdown(10_000);
    expect(s.wire.server.listening).toBe(false);
    slow.release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ done: true, responseStatus: {} });
    await closed;
    await expect(fetch(`${s.base}/api/Hello?worldParam=late`)).rejects.toThrow();
  });

  test('closes connections still open after the grace period and runs onClose hooks', async () => {
    const closedHooks: string[] = [];
    const s = await startServer({
      deps: { operations: testOperations, hooks: { onClose: [() => void closedHooks.push('flushed')] } },
    });
    const started = slow.started;
    const inFlight = fetch(`${s.base}/json/reply/ProbeSlow`).then(
      () => 'answered',
      () => 'cut',
    );
    while (slow.started === started) {
      await new Promise((r) => setTimeout(r, 5));
    }
    await s.wire.shutdown(50);
    expect(await inFlight).toBe('cut');
    expect(closedHooks).toEqual(['flushed']);
    slow.release();
  });
});
