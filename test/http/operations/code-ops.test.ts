// ProcedureCodeItemData and CodeDetails (ext) over a real server (auth on, signed calls) backed by the shared full
// reference database: JSON, CSV (response.records[] / single row) and XML, custom routes, ResponseXml only in XML,
// and the 400s.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';
import { startSignedServer, type SignedServer } from '../helpers.js';

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

interface ItemReply {
  request: Record<string, unknown>;
  response: { records: Record<string, unknown>[]; totalCount: number };
  responseXml?: string;
}

describe('ProcedureCodeItemData', () => {
  test('codeList on the predefined route (JSON); no responseXml outside XML', async () => {
    const res = await s.fetch('/json/reply/ProcedureCodeItemData', {
      method: 'POST',
      body: '{"codeList":["e0114","A4206"],"targetDate":"2025-06-01T00:00:00Z"}',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ItemReply;
    expect(body.response.totalCount).toBe(2);
    expect(body.response.records.map((r) => r['code']).sort()).toEqual(['A4206', 'E0114']);
    expect(body.response.records[0]).toHaveProperty('addOnCode');
    expect(body).not.toHaveProperty('responseXml');
  });

  test('keyword in the path (GET /medRef/coder/cpt/{keyword}), paging with limit and startRow', async () => {
    const first = (await (await s.fetch('/medRef/coder/cpt/wheelchair?limit=5')).json()) as ItemReply;
    expect(first.response.records).toHaveLength(5);
    expect(first.response.totalCount).toBeGreaterThan(5);
    const second = (await (await s.fetch('/medRef/coder/cpt/wheelchair?limit=5&startRow=6')).json()) as ItemReply;
    expect(second.response.totalCount).toBe(first.response.totalCount);
    expect(second.response.records[0]?.['code']).not.toBe(first.response.records[0]?.['code']);
    const post = await s.fetch('/medRef/coder/cpt', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"codeRange":{"codeStart":"A4206","codeEnd":"A4209"}}',
    });
    expect(post.status).toBe(200);
    const range = (await post.json()) as ItemReply;
    expect(range.response.records.map((r) => r['code'])).toEqual(['A4206', 'A4207', 'A4208', 'A4209']);
    expect((await s.fetch('/medRef/coder/cpt')).status).toBe(405);
  });

  test('CSV rows are response.records[]; XML has ProcedureCodeItem elements and ResponseXml', async () => {
    const csv = await (await s.fetch('/csv/reply/ProcedureCodeItemData?codeList=E0114,A4206')).text();
    const lines = csv.split('\r\n').slice(0, -1);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^code,codeId,codeType,shortDescription,longDescription,addedDate,/);
    const xml = await (await s.fetch('/xml/reply/ProcedureCodeItemData?codeList=E0114')).text();
    expect(xml).toMatch(/<ProcedureCodeItemDataResponse [^>]*>/);
    expect(xml.match(/<ProcedureCodeItem>/g)).toHaveLength(1);
    expect(xml).toMatch(/<ResponseXml>&lt;records totalCount="1"&gt;/);
  });

  test('limit over 200 is OutOfRange', async () => {
    const res = await s.fetch('/json/reply/ProcedureCodeItemData?keyword=wheelchair&limit=500');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ responseStatus: { errorCode: 'OutOfRange', errors: [{ fieldName: 'limit' }] } });
  });
});

describe('CodeDetails (ext)', () => {
  test('/medRef/codes/{codeList}: a dictionary keyed by each code as given (JSON)', async () => {
    const res = await s.fetch('/medRef/codes/s72001a,W21.89A,E11.9?date=2025-06-01');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: Record<string, Record<string, unknown>> };
    expect(Object.keys(body.result)).toEqual(['s72001a', 'W21.89A', 'E11.9']);
    expect(body.result['s72001a']).toMatchObject({ code: 'S72.001A', isValid: true, codeType: 'ICD-10 CM' });
    expect(body.result['W21.89A']).toMatchObject({ isValid: false, invalidReason: 'Invalid' });
    expect(body.result['W21.89A']?.['message']).toContain('W21.89XA');
    // A code named like an Object.prototype member is a key like any other (it was dropped from the result).
    const proto = (await (await s.fetch('/medRef/codes/__proto__,E11.9?date=2025-06-01')).json()) as typeof body;
    expect(Object.keys(proto.result)).toEqual(['__proto__', 'E11.9']);
    expect(proto.result['__proto__']).toMatchObject({ isValid: false });
  });

  test('codeSet narrows the reading; CSV single row; XML dictionary of CodeDetail', async () => {
    const res = await s.fetch('/medRef/codes/0010?codeSet=icd-9-cm&date=2014-01-01');
    const body = (await res.json()) as { result: Record<string, Record<string, unknown>> };
    // ICD-9-CM names two code systems (diagnoses and procedures): the engine answers the ambiguity, not a guess.
    expect(body.result['0010']).toMatchObject({ isValid: false, reasonCode: 'CODE_AMBIGUOUS' });
    const hcpcs = await s.fetch('/medRef/codes/e0114?codeSet=HCPCS&date=2025-06-01');
    expect(((await hcpcs.json()) as { result: Record<string, unknown> }).result).toMatchObject({
      e0114: { code: 'E0114', codeType: 'HCPCS' },
    });
    const csv = await (await s.fetch('/csv/reply/CodeDetails?codeList=E11.9')).text();
    expect(csv.split('\r\n')).toHaveLength(3);
    expect(csv.split('\r\n')[0]).toMatch(/^request\.codeList,/);
    const xml = await (await s.fetch('/xml/reply/CodeDetails?codeList=E11.9')).text();
    expect(xml).toContain('<a:KeyValueOfstringCodeDetail><a:Key>E11.9</a:Key>');
  });

  test('an unknown codeSet is InvalidValue on codeSet; no codes is NotEmpty', async () => {
    const res = await s.fetch('/medRef/codes/E11.9?codeSet=ICD-11');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      responseStatus: { errorCode: 'InvalidValue', errors: [{ fieldName: 'codeSet' }] },
    });
    const none = await s.fetch('/json/reply/CodeDetails');
    expect(none.status).toBe(400);
    expect(await none.json()).toMatchObject({ responseStatus: { errors: [{ fieldName: 'codeList' }] } });
  });
});
