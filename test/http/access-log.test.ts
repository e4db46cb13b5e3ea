// The access log (issue 11 §3): one info line per request with method, route template, operation, status and
// duration; never the raw URL, query values, bodies or headers.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { logSink, startServer, type TestServer } from './helpers.js';
import { testOperations } from './test-operations.js';

const { stream, lines } = logSink();
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations, log: pino({ level: 'info' }, stream) } });
});
afterAll(() => s.close());

/** The access-log lines written so far. */
const accessLines = (): Record<string, unknown>[] => lines.filter((l) => l['msg'] === 'request');

let calls = 0;

/** Sends a request, reads the reply, and waits for its access-log line. */
async function call(path: string, init?: RequestInit): Promise<Record<string, unknown>> {
  calls += 1;
  const before = accessLines().length;
  await (await fetch(`${s.base}${path}`, init)).text();
  await vi.waitFor(() => expect(accessLines().length).toBe(before + 1));
  return accessLines()[before] as Record<string, unknown>;
}

describe('access log', () => {
  test('writes one info line per request: method, route template, operation, status and duration', async () => {
    const line = await call('/lookupLtd/A00?codeSet=ICD10CM');
    expect(line).toMatchObject({
      level: 30,
      component: 'http',
      method: 'GET',
      route: '/lookupLtd/{search}',
      operation: 'Probe',
      status: 200,
    });
    expect(line['durationMs']).toEqual(expect.any(Number));
    expect(Object.keys(line).sort()).toEqual(
      [
        'component',
        'durationMs',
        'hostname',
        'level',
        'method',
        'msg',
        'operation',
        'pid',
        'route',
        'status',
        'time',
      ].sort(),
    );
    expect(await call('/json/reply/Probe', { method: 'POST', body: '{}' })).toMatchObject({
      method: 'POST',
      route: '/json/reply/Probe',
      operation: 'Probe',
      status: 200,
    });
  });

  test('names the route of metadata pages, and none for a path no route matches', async () => {
    expect(await call('/metadata')).toMatchObject({ route: '/metadata', operation: null, status: 200 });
    expect(await call('/no/such/route?x=1')).toMatchObject({
      method: 'GET',
      route: null,
      operation: null,
      status: 404,
    });
  });

  test('logs failures and FHIR calls with their pseudo-operation', async () => {
    expect(await call('/json/reply/ProbeFail')).toMatchObject({ operation: 'ProbeFail', status: 500 });
    // No reference database in this server: the FHIR facade answers 503, and the line says so.
    expect(await call('/fhir/CodeSystem/$lookup?system=x&code=y')).toMatchObject({
      route: '/fhir/codesystem/$lookup',
      operation: 'FhirLookup',
      status: 503,
    });
  });

  test('never writes query values, path values, bodies or headers', async () => {
    const before = lines.length;
    await call('/lookupLtd/PATHVALUE7?codeSet=QUERYVALUE7', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Member-Id': 'HEADERVALUE7' },
      body: JSON.stringify({ patient: { age: 77 }, extra: 'BODYVALUE7' }),
    });
    const written = JSON.stringify(lines.slice(before));
    for (const value of ['PATHVALUE7', 'QUERYVALUE7', 'BODYVALUE7', 'HEADERVALUE7', 'codeSet']) {
      expect(written).not.toContain(value);
    }
  });

  test('wrote exactly one line for each request of this file', () => {
    expect(accessLines()).toHaveLength(calls);
  });
});
