// GemsMap, ProprietaryMap and PrimaryLookup over a real server (auth on, signed calls) backed by the shared full
// reference database: JSON, CSV (list mode: result[]) and XML, custom routes, JSONP, the 400s of operations.md, and
// the 503 of a server started without a reference database.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';
import { startServer, startSignedServer, type SignedServer } from '../helpers.js';

let ref: Reference;
let s: SignedServer;
beforeAll(async () => {
  ref = await openSharedReference();
  s = await startSignedServer({ deps: { reference: ref } });
});
afterAll(async () => {
  await s.close();
  ref.close();
});

interface MapReply {
  request: Record<string, unknown>;
  result: Record<string, unknown>[];
  messages: unknown[];
  responseStatus: Record<string, unknown>;
}

describe('GemsMap', () => {
  test('A02.1 → two ICD-9 rows in scenario 1, combination (JSON, predefined route)', async () => {
    const res = await s.fetch('/json/reply/GemsMap', { method: 'POST', body: '{"sourceCodeCsv":"A02.1"}' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as MapReply;
    expect(body.request).toEqual({ sourceCodeCsv: 'A02.1' });
    expect(body.result).toHaveLength(2);
    for (const row of body.result) {
      expect(row).toMatchObject({ sourceCode: 'A02.1', sourceCodeType: 'ICD-10 CM', codeType: 'ICD-9 CM' });
      expect(row).toMatchObject({ isCombination: 1, scenario: 1, isNotMappable: 0 });
    }
    expect(body.result.map((r) => r['choiceList'])).toEqual([1, 2]);
    expect(body.responseStatus).toEqual({});
  });

  test('custom route /medRef/GemsMap by GET and POST, codes in request order', async () => {
    const get = await s.fetch('/medRef/GemsMap?sourceCodeCsv=e119,A02.1');
    expect(get.status).toBe(200);
    const body = (await get.json()) as MapReply;
    expect(body.result[0]).toMatchObject({ sourceCode: 'E11.9', code: '250.00' });
    expect(body.result.slice(1).every((r) => r['sourceCode'] === 'A02.1')).toBe(true);
    const post = await s.fetch('/medRef/GemsMap', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"sourceCodeCsv":"0DTJ4ZZ","sourceCodeType":"icd10pcs"}',
    });
    expect(post.status).toBe(200);
    const pcs = (await post.json()) as MapReply;
    expect(pcs.result[0]).toMatchObject({ sourceCode: '0DTJ4ZZ', sourceCodeType: 'ICD-10 PCS', code: '4701' });
  });

  test('CSV list mode: a header and one row per result item', async () => {
    const res = await s.fetch('/csv/reply/GemsMap?sourceCodeCsv=A02.1');
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = (await res.text()).split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1)).toHaveLength(3);
    expect(lines[0]).toBe(
      'sourceCode,sourceCodeDesc,sourceCodeType,code,codeDesc,codeType,isApproximate,isCombination,isNotMappable,scenario,choiceList',
    );
    expect(lines[1]).toMatch(/^A02\.1,.*,ICD-10 CM,003\.1,.*,ICD-9 CM,\d,1,0,1,1$/);
  });

  test('XML: GemsMapItem elements under Result', async () => {
    const res = await s.fetch('/xml/reply/GemsMap?sourceCodeCsv=A02.1');
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toMatch(/^<\?xml version="1\.0" encoding="utf-8"\?><GemsMapResponse /);
    expect(xml.match(/<GemsMapItem>/g)).toHaveLength(2);
    expect(xml).toContain('<SourceCode>A02.1</SourceCode>');
  });

  test('JSONP wraps the JSON reply in the callback', async () => {
    const res = await s.fetch('/medRef/GemsMap?sourceCodeCsv=A02.1&callback=cb');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    const text = await res.text();
    expect(text).toMatch(/^cb\(\{"request":\{"sourceCodeCsv":"A02\.1"\},"result":\[/);
  });

  test('400s: empty sourceCodeCsv is NotEmpty, an unknown sourceCodeType is InvalidValue', async () => {
    const empty = await s.fetch('/json/reply/GemsMap', { method: 'POST', body: '{}' });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({
      responseStatus: { errorCode: 'NotEmpty', errors: [{ errorCode: 'NotEmpty', fieldName: 'sourceCodeCsv' }] },
    });
    const commas = await s.fetch('/json/reply/GemsMap?sourceCodeCsv=,%20,');
    expect(commas.status).toBe(400);
    expect(await commas.json()).toMatchObject({ responseStatus: { errors: [{ fieldName: 'sourceCodeCsv' }] } });
    const type = await s.fetch('/json/reply/GemsMap?sourceCodeCsv=A02.1&sourceCodeType=ICD-11');
    expect(type.status).toBe(400);
    expect(await type.json()).toMatchObject({
      responseStatus: {
        errorCode: 'InvalidValue',
        errors: [{ errorCode: 'InvalidValue', fieldName: 'sourceCodeType', message: "'ICD-11' is an invalid value for 'sourceCodeType'." }],
      },
    });
  });

  test('needs credentials when authentication is on', async () => {
    const res = await fetch(`${s.base}/json/reply/GemsMap?sourceCodeCsv=A02.1`);
    expect(res.status).toBe(401);
  });
});

describe('ProprietaryMap', () => {
  test('JSON on the custom route: rows best first, logic and twins', async () => {
    const res = await s.fetch('/medRef/ProprietaryMap?sourceCodeCsv=E11.9');
    expect(res.status).toBe(200);
    const body = (await res.json()) as MapReply;
    expect(body.result[0]).toMatchObject({
      sourceCode: 'E11.9',
      sourceCodeAlt: 'E119',
      code: '250.00',
      codeAlt: '25000',
      logic: 0,
    });
    const levels = body.result.map((r) => r['confidenceLvl'] as number);
    expect([...levels].sort((a, b) => b - a)).toEqual(levels);
  });

  test('logicLimit filters; CSV rows and XML items', async () => {
    const all = (await (await s.fetch('/json/reply/ProprietaryMap?sourceCodeCsv=A02.1')).json()) as MapReply;
    expect(all.result.every((r) => r['logic'] === 2)).toBe(true);
    const none = (await (
      await s.fetch('/json/reply/ProprietaryMap?sourceCodeCsv=A02.1&logicLimit=0')
    ).json()) as MapReply;
    expect(none.result).toEqual([]);
    const csv = await (await s.fetch('/csv/reply/ProprietaryMap?sourceCodeCsv=A02.1')).text();
    const lines = csv.split('\r\n').slice(0, -1);
    expect(lines[0]).toBe(
      'sourceCode,sourceCodeDesc,sourceCodeType,sourceCodeAlt,code,codeAlt,codeDesc,codeType,confidenceLvl,logic',
    );
    expect(lines).toHaveLength(1 + all.result.length);
    const xml = await (await s.fetch('/xml/reply/ProprietaryMap?sourceCodeCsv=A02.1')).text();
    expect(xml.match(/<ProprietaryMapItem>/g)).toHaveLength(all.result.length);
    expect(xml).toContain('<Logic>2</Logic>');
  });

  test('logicLimit out of range is OutOfRange; unknown sourceCodeType is InvalidValue', async () => {
    const range = await s.fetch('/json/reply/ProprietaryMap?sourceCodeCsv=A02.1&logicLimit=3');
    expect(range.status).toBe(400);
    expect(await range.json()).toMatchObject({ responseStatus: { errors: [{ fieldName: 'logicLimit' }] } });
    const type = await s.fetch('/json/reply/ProprietaryMap?sourceCodeCsv=A02.1&sourceCodeType=CPT');
    expect(type.status).toBe(400);
    expect(await type.json()).toMatchObject({
      responseStatus: { errorCode: 'InvalidValue', errors: [{ fieldName: 'sourceCodeType' }] },
    });
  });
});

describe('PrimaryLookup', () => {
  test('ICD-9 250.00 → E11.9 in JSON; CSV single row; XML', async () => {
    const res = await s.fetch('/json/reply/PrimaryLookup?Icd9Code=25000&TargetDate=2025-06-01T00:00:00Z');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: Record<string, unknown> };
    // JSON names start lower-case, the spec's PascalCase ones too (wire.md section 8: "PrimaryLookup gives result.code").
    expect(Object.keys(body.result)).toEqual(['code', 'codeAlt', 'longDescription', 'shortDescription', 'primaryLookup']);
    expect(body.result).toMatchObject({ code: '250.00', codeAlt: '25000' });
    expect(body.result['primaryLookup']).toContain('E11.9');
    const csv = await (await s.fetch('/csv/reply/PrimaryLookup?icd9code=250.00&targetDate=2025-06-01')).text();
    expect(csv.split('\r\n')[0]).toBe(
      'result.code,result.codeAlt,result.longDescription,result.shortDescription,result.primaryLookup',
    );
    expect(csv.split('\r\n')[1]).toMatch(/^250\.00,25000,.*E11\.9/);
    const xml = await (await s.fetch('/xml/reply/PrimaryLookup?Icd9Code=250.00&TargetDate=2025-06-01')).text();
    expect(xml).toMatch(/<PrimaryLookupResponse [^>]*>/);
    expect(xml).toContain('<a:string>E11.9</a:string>');
    expect(xml).toContain('<Code>250.00</Code>');
  });

  test('an unknown code answers an empty list and says so; a missing code is NotEmpty', async () => {
    const res = await s.fetch('/json/reply/PrimaryLookup?Icd9Code=999.99');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { primaryLookup: string[] }; responseStatus: { message?: string } };
    expect(body.result.primaryLookup).toEqual([]);
    expect(body.responseStatus.message).toBeTruthy();
    const missing = await s.fetch('/json/reply/PrimaryLookup');
    expect(missing.status).toBe(400);
    // Field names in errors are camelCase (wire.md section 9), whatever case the spec writes.
    expect(await missing.json()).toMatchObject({ responseStatus: { errors: [{ fieldName: 'icd9Code' }] } });
    const badDate = await s.fetch('/json/reply/PrimaryLookup?Icd9Code=250.00&TargetDate=x');
    expect(badDate.status).toBe(400);
    expect(await badDate.json()).toMatchObject({ responseStatus: { errors: [{ fieldName: 'targetDate' }] } });
  });
});

describe('without a reference database', () => {
  test('engine operations answer 503 ServiceUnavailable; other operations still work', async () => {
    const bare = await startServer();
    try {
      const res = await fetch(`${bare.base}/json/reply/GemsMap?sourceCodeCsv=A02.1`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({
        responseStatus: { errorCode: 'ServiceUnavailable', message: expect.stringContaining('refdata') as string },
      });
      expect((await fetch(`${bare.base}/json/reply/Hello?worldParam=x`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
