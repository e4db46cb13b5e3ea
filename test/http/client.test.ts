// wire.md §13 and the §14 "real client" row: @servicestack/client calling Hello, Demo and SnomedMap on both base
// paths (`/api/{Op}` and, with basePath = null, `/json/reply/{Op}`), a failing request (the thrown object carries
// responseStatus), one-way calls and JsonApiClient's bodies without Content-Type; then, with authentication on and
// the client sending signed headers, Entity and SigStringBasic and their failures. The DTO classes are the
// generated ones committed in test/fixtures/dtos.ts, so these tests also prove that file usable.
import { JsonApiClient, JsonServiceClient } from '@servicestack/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Demo, Entity, Hello, SigStringBasic, SnomedMap, type IReturnVoid } from '../fixtures/dtos.js';
import { signed, startServer, startSignedServer, type SignedServer, type TestServer } from './helpers.js';
import { oneWayCalls, testOperations } from './test-operations.js';

/** A one-way DTO as the generator writes them (the product has no one-way operation yet). */
class ProbeOneWay implements IReturnVoid {
  public note?: string;
  public constructor(init?: Partial<ProbeOneWay>) {
    Object.assign(this, init);
  }
  public getTypeName(): string {
    return 'ProbeOneWay';
  }
  public getMethod(): string {
    return 'POST';
  }
  public createResponse(): void {}
}

/** A DTO for an operation the server does not have. */
class Nope {
  public getTypeName(): string {
    return 'Nope';
  }
  public getMethod(): string {
    return 'POST';
  }
  public createResponse(): Record<string, unknown> {
    return {};
  }
}

let s: TestServer;
let secured: SignedServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations } });
  secured = await startSignedServer();
});
afterAll(async () => {
  await s.close();
  await secured.close();
});

const basePaths = [
  { label: '/api', prefix: '/api', oneWay: '/api', apply: (_c: JsonServiceClient): void => undefined },
  {
    label: 'basePath = null',
    prefix: '/json/reply',
    oneWay: '/json/oneway',
    apply: (c: JsonServiceClient): void => {
      c.basePath = null;
    },
  },
];

describe.each(basePaths)('JsonServiceClient on $label', ({ prefix, oneWay, apply }) => {
  function client(urls: string[]): JsonServiceClient {
    const c = new JsonServiceClient(s.base);
    apply(c);
    c.urlFilter = (url) => urls.push(url);
    return c;
  }

  test('api(new Hello) resolves to a succeeded ApiResult with the typed response', async () => {
    const urls: string[] = [];
    const result = await client(urls).api(new Hello({ worldParam: 'client' }));
    expect(urls).toEqual([`${s.base}${prefix}/Hello`]);
    expect(result.succeeded).toBe(true);
    expect(result.error).toBeUndefined();
    expect(result.response?.hello).toBe('Hello, client');
    expect(result.response?.env).toBe('test');
    expect(result.response?.request?.worldParam).toBe('client');
    expect(result.response?.responseStatus).toEqual({});
  });

  test('api(new Hello({})) fails with NotEmpty and a case-insensitive field error', async () => {
    const result = await client([]).api(new Hello({}));
    expect(result.failed).toBe(true);
    expect(result.errorCode).toBe('NotEmpty');
    expect(result.fieldError('worldParam')?.message).toBe("'worldParam' must not be empty.");
    expect(result.fieldError('WORLDPARAM')).toBeDefined();
  });

  test('post() of a failing request throws a plain object carrying responseStatus', async () => {
    const thrown: unknown = await client([])
      .post(new Hello({}))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(thrown).not.toBeInstanceOf(Error);
    expect(thrown).toMatchObject({ responseStatus: { errorCode: 'NotEmpty', errors: [{ fieldName: 'worldParam' }] } });
  });

  test('an unknown operation throws NotFound, not a bare status number', async () => {
    const thrown = (await client([])
      .post(new Nope())
      .then(
        () => undefined,
        (e: unknown) => e,
      )) as { responseStatus: { errorCode: string } };
    expect(thrown.responseStatus.errorCode).toBe('NotFound');
  });

  test('get() sends the fields in the query string', async () => {
    const urls: string[] = [];
    const response = await client(urls).get(new Hello({ worldParam: 'by get' }));
    expect(urls).toEqual([`${s.base}${prefix}/Hello?worldParam=by%20get`]);
    expect(response.hello).toBe('Hello, by get');
  });

  test('Demo and SnomedMap answer typed responses', async () => {
    const demo = await client([]).post(new Demo());
    expect(demo.response).toMatchObject({ service: 'claim-scrubber' });
    const snomed = await client([]).api(new SnomedMap({ sourceCode: '44054006' }));
    expect(snomed.succeeded).toBe(true);
    expect(snomed.response?.responseStatus?.message).toContain('No SNOMED CT');
  });

  test('sendOneWay resolves to undefined on the 204', async () => {
    const urls: string[] = [];
    const before = oneWayCalls.length;
    const result: unknown = await client(urls).sendOneWay(new ProbeOneWay({ note: 'n' }));
    expect(urls).toEqual([`${s.base}${oneWay}/ProbeOneWay`]);
    expect(result).toBeUndefined();
    expect(oneWayCalls.length).toBe(before + 1);
  });
});

describe('JsonApiClient', () => {
  test('binds its JSON body sent without Content-Type', async () => {
    const client = JsonApiClient.create(s.base);
    const response = await client.post(new Hello({ worldParam: 'api client' }));
    expect(response.hello).toBe('Hello, api client');
  });
});

describe.each(basePaths)('JsonServiceClient with signed headers on $label', ({ prefix, apply }) => {
  /** A client of the auth-on server; signs its headers now (valid for 5 minutes) unless told not to. */
  function client(urls: string[], sign = true): JsonServiceClient {
    const c = new JsonServiceClient(secured.base);
    apply(c);
    c.urlFilter = (url) => urls.push(url);
    if (sign) {
      for (const [name, value] of Object.entries(signed(secured.key, secured.userName))) {
        c.headers.set(name, value);
      }
    }
    return c;
  }

  test('Hello answers a typed response', async () => {
    const urls: string[] = [];
    const response = await client(urls).post(new Hello({ worldParam: 'signed' }));
    expect(urls).toEqual([`${secured.base}${prefix}/Hello`]);
    expect(response.hello).toBe('Hello, signed');
  });

  test('Entity creates an organisation and answers its typed id', async () => {
    const urls: string[] = [];
    const result = await client(urls).api(new Entity({ entityName: `Client ${prefix}`, state: 'CA' }));
    expect(urls).toEqual([`${secured.base}${prefix}/Entity`]);
    expect(result.succeeded).toBe(true);
    expect(typeof result.response?.entityId).toBe('number');
    expect(secured.accounts.getEntity(result.response?.entityId ?? 0)?.parentEntityId).toBe(secured.key.entityId);
  });

  test('SigStringBasic answers the signable string (no credentials needed)', async () => {
    const response = await client([], false).post(
      new SigStringBasic({ apiKey: 'k', userName: 'u', timeStampIso8601: '2025-01-02T03:04:05Z' }),
    );
    expect(response.timeStampUtc).toBe('2025-01-02T03:04:05.000Z');
    expect(response.signableString).toBe('k\nu\n2025-01-02T03:04:05.000Z');
    expect(response.request?.apiKey).toBe('k');
  });

  test('failures throw plain objects carrying responseStatus: no credentials, a field error, a conflict', async () => {
    const thrown = (p: Promise<unknown>): Promise<unknown> =>
      p.then(
        () => undefined,
        (e: unknown) => e,
      );
    const unsigned = await thrown(client([], false).post(new Entity({ entityName: 'Nobody' })));
    expect(unsigned).not.toBeInstanceOf(Error);
    expect(unsigned).toMatchObject({ responseStatus: { errorCode: 'Unauthorized', errors: [] } });
    const invalid = await client([]).api(new Entity({ entityName: 'Bad', postalCode: 'nope' }));
    expect(invalid.failed).toBe(true);
    expect(invalid.errorCode).toBe('InvalidValue');
    expect(invalid.fieldError('PostalCode')?.message).toBe("'nope' is an invalid value for 'postalCode'.");
    await client([]).post(new Entity({ entityName: `Twice ${prefix}` }));
    const conflict = await thrown(client([]).post(new Entity({ entityName: `Twice ${prefix}` })));
    expect(conflict).toMatchObject({ responseStatus: { errorCode: 'Conflict' } });
  });
});
