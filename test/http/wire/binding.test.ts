// wire.md §2–4 and §14 rows: body format on predefined routes, query filling, custom-route precedence, names,
// arrays, dates, value conversion and field errors.
import { connect } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { json, logSink, raw, startServer, type TestServer } from '../helpers.js';
import { testOperations } from '../test-operations.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations } });
});
afterAll(async () => {
  await s.close();
});

async function echo(path: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const res = await fetch(`${s.base}${path}`, init);
  const body = await json(res);
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body['request'] as Record<string, unknown>;
}

async function errors(
  path: string,
  init?: RequestInit,
): Promise<{ status: number; responseStatus: Record<string, unknown> }> {
  const res = await fetch(`${s.base}${path}`, init);
  return { status: res.status, responseStatus: (await json(res))['responseStatus'] as Record<string, unknown> };
}

describe('body format on predefined routes', () => {
  test('parses a body in the route format whatever Content-Type says, or with none', async () => {
    expect(
      await echo('/json/reply/Probe', {
        method: 'POST',
        body: '{"search":"knee"}',
        headers: { 'Content-Type': 'text/plain' },
      }),
    ).toMatchObject({ search: 'knee' });
    const r = await raw(s.port, { method: 'POST', path: '/json/reply/Probe', body: '{"search":"hip"}' });
    expect(JSON.parse(r.body)).toMatchObject({ request: { search: 'hip' } });
    expect(
      await echo('/xml/reply/Probe?format=json', {
        method: 'POST',
        body: '<Probe><Search>x</Search></Probe>',
        headers: { 'Content-Type': 'application/json' },
      }),
    ).toMatchObject({ search: 'x' });
  });

  test('parses an urlencoded body as form fields on any route', async () => {
    expect(
      await echo('/json/reply/Probe', {
        method: 'POST',
        body: 'search=form&endRow=3',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    ).toMatchObject({ search: 'form', endRow: 3 });
    expect(
      await echo('/lookupLtd', {
        method: 'POST',
        body: 'search=form',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      }),
    ).toMatchObject({ search: 'form' });
  });

  test('binds an empty body as an empty DTO (defaults applied)', async () => {
    expect(
      await echo('/json/reply/Probe', { method: 'POST', body: '', headers: { 'Content-Type': 'application/json' } }),
    ).toEqual({ endRow: 10 });
    expect(
      await echo('/json/reply/Probe', {
        method: 'POST',
        body: '  \n',
        headers: { 'Content-Type': 'application/json' },
      }),
    ).toEqual({ endRow: 10 });
  });

  test('ignores the Content-Type of a GET without a body', async () => {
    expect(
      await echo('/json/reply/Probe?search=q', { headers: { 'Content-Type': 'multipart/form-data; boundary=x' } }),
    ).toMatchObject({ search: 'q' });
  });
});

describe('query string on predefined routes', () => {
  test('fills fields the body left absent or null, never overwriting the body', async () => {
    const init = { method: 'POST', headers: { 'Content-Type': 'application/json' } };
    expect(await echo('/json/reply/Probe?codeSet=B', { ...init, body: '{"codeSet":"A"}' })).toMatchObject({
      codeSet: 'A',
    });
    expect(await echo('/json/reply/Probe?codeSet=B', { ...init, body: '{"codeSet":null}' })).toMatchObject({
      codeSet: 'B',
    });
    expect(await echo('/json/reply/Probe?codeSet=B&search=s', { ...init, body: '{}' })).toMatchObject({
      codeSet: 'B',
      search: 's',
    });
    expect(await echo('/json/reply/Probe?endRow=5')).toMatchObject({ endRow: 5 });
  });

  test('treats empty query values as absent and never binds format or callback', async () => {
    expect(await echo('/json/reply/Probe?search=&codeSet=x&format=json')).toEqual({ codeSet: 'x', endRow: 10 });
  });
});

describe('custom route precedence', () => {
  test('binds body < path < query', async () => {
    const init = {
      method: 'POST',
      body: '{"search":"x","codeSet":"body"}',
      headers: { 'Content-Type': 'application/json' },
    };
    expect(await echo('/lookupLtd/knee?search=hip', init)).toMatchObject({ search: 'hip', codeSet: 'body' });
    expect(await echo('/lookupLtd/knee', init)).toMatchObject({ search: 'knee' });
    expect(await echo('/lookupLtd', init)).toMatchObject({ search: 'x' });
  });

  test('parses a custom-route body without Content-Type as JSON', async () => {
    const r = await raw(s.port, { method: 'POST', path: '/lookupLtd', body: '{"search":"nobody"}' });
    expect(JSON.parse(r.body)).toMatchObject({ request: { search: 'nobody' } });
  });

  test('parses custom-route bodies by Content-Type: +json, CSV and XML', async () => {
    expect(
      await echo('/lookupLtd', {
        method: 'POST',
        body: '{"search":"v"}',
        headers: { 'Content-Type': 'application/vnd.api+json' },
      }),
    ).toMatchObject({ search: 'v' });
    expect(
      await echo('/lookupLtd', {
        method: 'POST',
        body: 'search,endRow\r\ncsv,7\r\n',
        headers: { 'Content-Type': 'text/csv' },
      }),
    ).toMatchObject({ search: 'csv', endRow: 7 });
    expect(
      await echo('/lookupLtd', {
        method: 'POST',
        body: '<LookupSearch><Search>xml</Search></LookupSearch>',
        headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      }),
    ).toMatchObject({ search: 'xml' });
  });
});

describe('field names', () => {
  test('match case-insensitively in every source; unknown names are ignored', async () => {
    const init = { method: 'POST', headers: { 'Content-Type': 'application/json' } };
    expect(await echo('/json/reply/Probe', { ...init, body: '{"SEARCH":"A00.0","zzz":1,"CodeSet":"c"}' })).toEqual({
      search: 'A00.0',
      codeSet: 'c',
      endRow: 10,
    });
    expect(await echo('/json/reply/Probe?SeArCh=q&ENDROW=4')).toMatchObject({ search: 'q', endRow: 4 });
    expect(
      await echo('/xml/reply/Probe?format=json', {
        method: 'POST',
        body: '<x:Probe xmlns:x="urn:x"><x:SEARCH>q</x:SEARCH><Unknown>1</Unknown></x:Probe>',
      }),
    ).toMatchObject({ search: 'q' });
    expect(
      await echo('/csv/reply/Probe?format=json', { method: 'POST', body: 'SEARCH,Patient.AGE\r\nq,70\r\n' }),
    ).toMatchObject({ search: 'q', patient: { age: 70 } });
  });
});

describe('values', () => {
  test('arrays from a,b, [a,b] and repeated keys give equal echoes', async () => {
    const a = await echo('/json/reply/Probe?cptCodes=93325,93320&conceptIdList=1,2');
    const b = await echo('/json/reply/Probe?cptCodes=[93325,93320]&conceptIdList=[1,2]');
    const c = await echo('/json/reply/Probe?cptCodes=93325&cptCodes=93320&conceptIdList=1&conceptIdList=2');
    expect(a).toEqual({ cptCodes: ['93325', '93320'], conceptIdList: [1, 2], endRow: 10 });
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  test('arrays from JSON arrays, a JSON scalar, CSV cells and XML lists', async () => {
    const post = (path: string, body: string): Promise<Record<string, unknown>> => echo(path, { method: 'POST', body });
    expect(await post('/json/reply/Probe', '{"cptCodes":["1","2"],"conceptIdList":3}')).toMatchObject({
      cptCodes: ['1', '2'],
      conceptIdList: [3],
    });
    expect(await post('/csv/reply/Probe?format=json', 'cptCodes,conceptIdList\r\n1|2,"[3,4]"\r\n')).toMatchObject({
      cptCodes: ['1', '2'],
      conceptIdList: [3, 4],
    });
    expect(
      await post(
        '/xml/reply/Probe?format=json',
        '<Probe xmlns:a="urn:a"><CptCodes><a:string>1</a:string><a:string>2</a:string></CptCodes><ConceptIdList>5</ConceptIdList><ConceptIdList>6</ConceptIdList></Probe>',
      ),
    ).toMatchObject({ cptCodes: ['1', '2'], conceptIdList: [5, 6] });
  });

  test('a quoted item keeps its comma', async () => {
    expect(await echo(`/json/reply/Probe?cptCodes=${encodeURIComponent('"a,b",c')}`)).toMatchObject({
      cptCodes: ['a,b', 'c'],
    });
  });

  test('dates from an ISO date, an ISO date-time with offset and /Date(ms±hhmm)/ bind the same effectiveDate', async () => {
    const forms = ['2024-03-01', '2024-03-01T23:30:00-05:00', '/Date(1709335800000-0500)/'];
    for (const f of forms) {
      expect(await echo(`/json/reply/Probe?effectiveDate=${encodeURIComponent(f)}`), f).toMatchObject({
        effectiveDate: '2024-03-01',
      });
    }
    expect(
      await echo('/json/reply/Probe', { method: 'POST', body: '{"effectiveDate":"\\/Date(1709335800000-0500)\\/"}' }),
    ).toMatchObject({ effectiveDate: '2024-03-01' });
    expect(await echo('/json/reply/Probe?timeStamp=2024-03-01T10:00:00%2B01:00')).toMatchObject({
      timeStamp: '2024-03-01T10:00:00+01:00',
    });
  });

  test('booleans, shorts, nested objects and dictionaries', async () => {
    expect(await echo('/json/reply/Probe?includeIndex=TRUE&logicLimit=2')).toMatchObject({
      includeIndex: true,
      logicLimit: 2,
    });
    expect(await echo(`/json/reply/Probe?patient=${encodeURIComponent('{"age":70,"gender":"f"}')}`)).toMatchObject({
      patient: { age: 70, gender: 'f' },
    });
    expect(
      await echo('/json/reply/Probe', {
        method: 'POST',
        body: '{"cptIcdMapping":{"93325":["I10","E11.9"]},"extra":{"any":[1,"x"]}}',
      }),
    ).toMatchObject({
      cptIcdMapping: { '93325': ['I10', 'E11.9'] },
      extra: { any: [1, 'x'] },
    });
    expect(
      await echo('/xml/reply/Probe?format=json', {
        method: 'POST',
        body: '<Probe><CptIcdMapping><a:KeyValueOfstringArrayOfstring xmlns:a="urn:a"><a:Key>93325</a:Key><a:Value><a:string>I10</a:string></a:Value></a:KeyValueOfstringArrayOfstring></CptIcdMapping><Patient><Age>5</Age><Gender i:nil="true" xmlns:i="urn:i"/></Patient></Probe>',
      }),
    ).toMatchObject({ cptIcdMapping: { '93325': ['I10'] }, patient: { age: 5 } });
  });

  test('a one-element JSON array binds a string field', async () => {
    expect(await echo('/json/reply/Probe', { method: 'POST', body: '{"search":["knee"]}' })).toMatchObject({
      search: 'knee',
    });
  });
});

describe('field errors', () => {
  test('a missing required field is NotEmpty, and the top-level code and message are the first error’s', async () => {
    const r = await errors('/json/reply/ProbeMap', { method: 'POST', body: '{}' });
    expect(r.status).toBe(400);
    expect(r.responseStatus).toEqual({
      errorCode: 'NotEmpty',
      message: "'sourceCodeCsv' must not be empty.",
      errors: [{ errorCode: 'NotEmpty', fieldName: 'sourceCodeCsv', message: "'sourceCodeCsv' must not be empty." }],
    });
  });

  test('wrong types are InvalidValue, bounds are OutOfRange, long lists TooMany, all answered together in field order', async () => {
    const r = await errors(
      '/json/reply/Probe?endRow=500&includeIndex=maybe&effectiveDate=2024-13-01&cptCodes=1,2,3,4,5,6&logicLimit=40000&startRow=0',
      {},
    );
    expect(r.status).toBe(400);
    expect(r.responseStatus['errors']).toEqual([
      { errorCode: 'OutOfRange', fieldName: 'startRow', message: "'startRow' must be between 1 and 2147483647." },
      { errorCode: 'OutOfRange', fieldName: 'endRow', message: "'endRow' must be between 1 and 200." },
      { errorCode: 'OutOfRange', fieldName: 'logicLimit', message: "'logicLimit' must be between 0 and 2." },
      {
        errorCode: 'InvalidValue',
        fieldName: 'includeIndex',
        message: "'maybe' is an invalid value for 'includeIndex'.",
      },
      {
        errorCode: 'InvalidValue',
        fieldName: 'effectiveDate',
        message: "'2024-13-01' is an invalid value for 'effectiveDate'.",
      },
      { errorCode: 'TooMany', fieldName: 'cptCodes', message: "'cptCodes' must not have more than 5 items." },
    ]);
    expect(r.responseStatus['errorCode']).toBe('OutOfRange');
  });

  test('nested and item errors carry camelCase paths', async () => {
    const r = await errors('/json/reply/Probe', {
      method: 'POST',
      body: '{"patient":{"age":"old","gender":"x"},"conceptIdList":[1,"two"],"endRow":"abc"}',
    });
    expect(r.status).toBe(400);
    expect(
      (r.responseStatus['errors'] as { fieldName: string; errorCode: string }[]).map(
        (e) => `${e.errorCode}:${e.fieldName}`,
      ),
    ).toEqual([
      'InvalidValue:endRow',
      'InvalidValue:conceptIdList[1]',
      'InvalidValue:patient.age',
      'InvalidValue:patient.gender',
    ]);
  });

  test('a JSON object for a string field and an integer beyond Int32 are reported', async () => {
    const r = await errors('/json/reply/Probe', { method: 'POST', body: '{"search":{"a":1},"startRow":99999999999}' });
    expect(r.responseStatus['errors']).toEqual([
      { errorCode: 'InvalidValue', fieldName: 'search', message: `'{"a":1}' is an invalid value for 'search'.` },
      { errorCode: 'OutOfRange', fieldName: 'startRow', message: "'startRow' must be between 1 and 2147483647." },
    ]);
  });

  test('a value nested deeper than JSON.stringify can go is a 400 naming the field, and long values are cut', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    for (const body of [`{"search":${deep}}`, `{"cptCodes":[${deep}]}`, `{"patient":${deep}}`]) {
      const r = await errors('/json/reply/Probe', { method: 'POST', body });
      expect(r.status, body.slice(0, 20)).toBe(400);
      const [first] = r.responseStatus['errors'] as { errorCode: string; fieldName: string; message: string }[];
      expect(first?.errorCode).toBe('InvalidValue');
      expect(first?.fieldName).toMatch(/^(search|cptCodes\[0\]|patient)$/);
    }
    const long = await errors('/json/reply/Probe', { method: 'POST', body: `{"search":[${'1,'.repeat(500)}1]}` });
    const [cut] = long.responseStatus['errors'] as { message: string }[];
    expect(cut?.message).toBe(`'[${'1,'.repeat(99)}1…' is an invalid value for 'search'.`);
  });
});

describe('conditional rules and logging', () => {
  test('a refinement names its own field error code and message', async () => {
    const r = await errors('/json/reply/Probe?codeSet=LCD');
    expect(r.status).toBe(400);
    expect(r.responseStatus).toEqual({
      errorCode: 'NotEmpty',
      message: "'search' must not be empty when codeSet is LCD.",
      errors: [
        { errorCode: 'NotEmpty', fieldName: 'search', message: "'search' must not be empty when codeSet is LCD." },
      ],
    });
  });

  test('a client that closes the connection mid-body is logged at debug level, not as a failed operation', async () => {
    const { stream, lines } = logSink();
    const debug = await startServer({ deps: { operations: testOperations, log: pino({ level: 'debug' }, stream) } });
    try {
      const { port } = new URL(debug.base);
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write('POST /json/reply/Probe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"sea');
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
      await expect.poll(() => lines.some((l) => String(l['msg']).startsWith('client closed the connection'))).toBe(true);
      expect(lines.filter((l) => Number(l['level']) >= 50)).toEqual([]);
    } finally {
      await debug.close();
    }
  });

  test('unknown names are logged at debug level', async () => {
    const { stream, lines } = logSink();
    const debug = await startServer({ deps: { operations: testOperations, log: pino({ level: 'debug' }, stream) } });
    try {
      await fetch(`${debug.base}/json/reply/Probe?zzz=1`, { method: 'POST', body: '{"patient":{"shoe":42}}' });
      expect(lines.find((l) => l['msg'] === 'unknown request fields ignored')).toMatchObject({
        operation: 'Probe',
        fields: ['patient.shoe', 'zzz'],
      });
    } finally {
      await debug.close();
    }
  });
});
