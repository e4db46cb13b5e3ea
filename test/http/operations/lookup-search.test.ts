// LookupSearch over a real server (auth on, signed calls) backed by the shared full reference database: both
// routes, JSON, XML and CSV, paging, concepts and the conceptIdList filter, instructions, the 400s, and the round
// trip through @servicestack/client with the generated DTOs.
import { JsonServiceClient } from '@servicestack/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { categoryConceptId } from '../../../src/engines/search/concepts.js';
import { CodeSystem } from '../../../src/schemas/code-systems.js';
import type { SearchResult } from '../../../src/schemas/search.js';
import { LookupSearch, type LookupSearchResponse } from '../../fixtures/dtos.js';
import { openSharedReference } from '../../helpers/reference-db.js';
import { signed, startSignedServer, type SignedServer } from '../helpers.js';

let ref: Reference;
let s: SignedServer;
beforeAll(async () => {
  ref = await openSharedReference();
  s = await startSignedServer({ deps: { reference: ref } });
}, 120_000);
afterAll(async () => {
  await s.close();
  ref.close();
});

interface Reply {
  request: Record<string, unknown>;
  result: SearchResult;
  responseStatus?: { errorCode: string; errors?: { fieldName: string; errorCode: string }[] };
}
const codes = (r: Reply): string[] => r.result.results.selectedDiagnosisPageset.diagnosis.map((d) => d.code);

describe('LookupSearch', () => {
  test('words in the path: the code whose title says them comes first, with its id, codeAlt and title', async () => {
    const res = await s.fetch('/lookupLtd/type%202%20diabetes%20with%20hyperglycemia?dateOfService=2026-05-15');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Reply;
    expect(body.result.results.selectedDiagnosisPageset.diagnosis[0]).toMatchObject({
      code: 'E11.65',
      codeAlt: 'E1165',
      desc: 'Type 2 diabetes mellitus with hyperglycemia',
    });
    expect(body.result.results.selectedDiagnosisPageset.diagnosis[0]?.id).toBeGreaterThan(0);
    expect(body.result.parameters.param.map((p) => p.value)).toEqual(['type', '2', 'diabetes', 'with', 'hyperglycemia']);
    // Its instructions, gathered up the hierarchy (E11's "use additional code" for insulin names Z79.4).
    const use = body.result.results.instructions.instructionType.find((t) => t.type === 'useAdditionalCode');
    expect(use?.instruction.some((i) => i.codeRanges.includes('Z79.4'))).toBe(true);
  });

  test('query route with paging: the total is before paging and pages do not overlap', async () => {
    const page1 = (await (await s.fetch('/lookupLtd?search=fracture%20neck%20of%20femur&includeIndex=true&dateOfService=2026-05-15&endRow=5')).json()) as Reply;
    const page2 = (await (await s.fetch('/lookupLtd?search=fracture%20neck%20of%20femur&includeIndex=true&dateOfService=2026-05-15&endRow=5&startRow=6')).json()) as Reply;
    expect(codes(page1)).toHaveLength(5);
    expect(page1.result.results.selectedDiagnosisTotal.count).toBeGreaterThan(10);
    expect(page2.result.results.selectedDiagnosisTotal.count).toBe(page1.result.results.selectedDiagnosisTotal.count);
    expect(codes(page2).filter((c) => codes(page1).includes(c))).toEqual([]);
    expect(codes(page1).slice(0, 3).some((c) => ['S72.001A', 'S72.002A', 'S72.009A'].includes(c))).toBe(true);
  });

  test('pages cut one order: rows 1-20 are rows 1-10 then 11-20, with and without more than 5,000 codes found', async () => {
    for (const search of ['fracture', 'sprain']) {
      const page = async (startRow: number, endRow: number): Promise<Reply> =>
        (await (await s.fetch(`/lookupLtd?search=${search}&includeIndex=true&dateOfService=2026-05-15&startRow=${String(startRow)}&endRow=${String(endRow)}`)).json()) as Reply;
      const [all, first, second] = await Promise.all([page(1, 20), page(1, 10), page(11, 10)]);
      expect(codes(all), search).toHaveLength(20);
      expect([...codes(first), ...codes(second)], search).toEqual(codes(all));
    }
    const many = (await (await s.fetch('/lookupLtd?search=fracture&includeIndex=true&dateOfService=2026-05-15')).json()) as Reply;
    expect(many.result.messages.map((m) => m.message).join(' ')).toMatch(/codes match: the first 5000 are ranked/);
  });

  test('concepts are facets over the result; conceptIdList keeps the codes carrying them', async () => {
    const all = (await (await s.fetch('/lookupLtd?search=sprain%20wrist&dateOfService=2026-05-15&endRow=200')).json()) as Reply;
    const laterality = all.result.results.selectedConcepts.conceptType.find((t) => t.type === 'laterality');
    const left = laterality?.concepts.concept.find((c) => c.desc === 'Left');
    expect(left?.count).toBeGreaterThan(0);
    const narrowed = (await (
      await s.fetch(`/lookupLtd?search=sprain%20wrist&dateOfService=2026-05-15&endRow=200&conceptIdList=${String(left?.id)}`)
    ).json()) as Reply;
    expect(narrowed.result.results.selectedDiagnosisTotal.count).toBe(left?.count);
    expect(narrowed.result.results.selectedDiagnosisPageset.diagnosis.every((d) => /\bleft\b/i.test(d.desc))).toBe(true);
    const unknown = (await (await s.fetch('/lookupLtd?search=sprain%20wrist&dateOfService=2026-05-15&conceptIdList=1')).json()) as Reply;
    expect(unknown.result.messages.map((m) => m.message).join(' ')).toMatch(/Concept 1 is not among/);
  });

  test('XML names the items by their schema ids; CSV is one row', async () => {
    const xml = await (await s.fetch('/xml/reply/LookupSearch?search=chf&dateOfService=2026-05-15')).text();
    expect(xml).toContain('<SearchDiagnosis>');
    expect(xml).toMatch(/<Code>I50\.9<\/Code>/);
    const csv = await s.fetch('/csv/reply/LookupSearch?search=chf&dateOfService=2026-05-15');
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    expect((await csv.text()).split('\n')[0]).toMatch(/search/);
  });

  test('400s: empty search (NotEmpty), unknown codeSet (InvalidValue), endRow over 200 and startRow 0 (OutOfRange)', async () => {
    const long = (await s.fetch(`/json/reply/LookupSearch?search=${'a%20'.repeat(400)}`)).status;
    expect(long).toBe(400);
    const cases: [string, string, string][] = [
      ['/json/reply/LookupSearch?search=', 'search', 'NotEmpty'],
      ['/json/reply/LookupSearch?search=x&codeSet=SNOMED', 'codeSet', 'InvalidValue'],
      ['/json/reply/LookupSearch?search=x&endRow=201', 'endRow', 'OutOfRange'],
      ['/json/reply/LookupSearch?search=x&startRow=0', 'startRow', 'OutOfRange'],
    ];
    for (const [path, field, code] of cases) {
      const res = await s.fetch(path);
      expect(res.status, path).toBe(400);
      const body = (await res.json()) as Reply;
      expect(body.responseStatus?.errors?.[0], path).toMatchObject({ fieldName: field, errorCode: code });
    }
  });

  test('through @servicestack/client with the generated DTO', async () => {
    const client = new JsonServiceClient(s.base);
    for (const [name, value] of Object.entries(signed(s.key, s.userName))) {
      client.headers.set(name, value);
    }
    const request = new LookupSearch({ search: 'laparoscopic appendectomy', codeSet: 'ICD-10 PCS', includeIndex: true, dateOfService: '2026-05-15' });
    const reply: LookupSearchResponse = await client.get(request);
    const top = reply.result?.results?.selectedDiagnosisPageset?.diagnosis?.slice(0, 3).map((d) => d.code) ?? [];
    expect(top).toContain('0DTJ4ZZ');
  });
});

describe('SearchSuggestions, CodeInstruction, ConceptInformation', () => {
  test('suggestions by prefix, most common first; their ids open ConceptInformation; empty word → empty list', async () => {
    const res = await s.fetch('/medRef/search/suggestions/diab?limit=5&dateOfService=2026-05-15');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { concept: string; conceptBaseId: number }[] };
    expect(body.result).toHaveLength(5);
    expect(body.result[0]?.concept).toBe('Type 2 diabetes mellitus');
    expect(body.result.every((r) => /\bdiab/i.test(r.concept))).toBe(true);
    const info = (await (await s.fetch(`/medRef/search/concept/${String(body.result[0]?.conceptBaseId)}?dateOfService=2026-05-15`)).json()) as Reply;
    expect(info.result.results.infoNodes.info[0]).toMatchObject({ type: 'category', label: 'E11', title: 'Type 2 diabetes mellitus' });
    expect(codes(info).every((c) => c.startsWith('E11.'))).toBe(true);
    expect(info.result.results.selectedDiagnosisTotal.count).toBeGreaterThan(50);
    const empty = (await (await s.fetch('/json/reply/SearchSuggestions?word=')).json()) as { result: unknown[] };
    expect(empty.result).toEqual([]);
    const csv = await (await s.fetch('/csv/reply/SearchSuggestions?word=asthma')).text();
    expect(csv.split('\r\n')[0]).toBe('concept,conceptBaseId');
  });

  test('code instruction: the code with its own and inherited notes; an unknown code is 404', async () => {
    const body = (await (await s.fetch('/medRef/search/instruction/E11.9?dateOfService=2026-05-15')).json()) as Reply;
    expect(codes(body)).toEqual(['E11.9']);
    const types = body.result.results.instructions.instructionType;
    expect(types.map((t) => t.type)).toContain('useAdditionalCode');
    expect(body.result.results.infoNodes.info.map((i) => i.label)).toEqual(['E00-E89', 'E08-E13', 'E11']);
    const missing = await s.fetch('/medRef/search/instruction/E11.99?dateOfService=2026-05-15');
    expect(missing.status).toBe(404);
  });

  test('concept information of a chapter and of a laterality; an unknown id is 404', async () => {
    const chapter = (await (await s.fetch('/medRef/search/concept/1000004?dateOfService=2026-05-15&endRow=3')).json()) as Reply;
    expect(chapter.result.results.infoNodes.info[0]).toMatchObject({ type: 'chapter', label: 'E00-E89' });
    expect(codes(chapter)).toHaveLength(3);
    const left = (await (await s.fetch('/medRef/search/concept/4000002?dateOfService=2026-05-15')).json()) as Reply;
    expect(left.result.results.selectedDiagnosisPageset.diagnosis.every((d) => /\bleft\b/i.test(d.desc))).toBe(true);
    expect((await s.fetch('/medRef/search/concept/3999999')).status).toBe(404);
    // An id past the base-37 keys, and a PCS category under the same three characters as an ICD-10-CM one.
    expect((await s.fetch('/medRef/search/concept/3762617')).status).toBe(404);
    const cm = (await (await s.fetch(`/medRef/search/concept/${String(categoryConceptId(CodeSystem.ICD10CM, 'B02'))}?dateOfService=2026-05-15`)).json()) as Reply;
    const pcs = (await (await s.fetch(`/medRef/search/concept/${String(categoryConceptId(CodeSystem.ICD10PCS, 'B02'))}?dateOfService=2026-05-15`)).json()) as Reply;
    expect(codes(cm).length).toBeGreaterThan(0);
    expect(codes(cm).every((c) => /^B02\./.test(c))).toBe(true);
    expect(codes(pcs).length).toBeGreaterThan(0);
    expect(codes(pcs).every((c) => /^B02[0-9A-Z]{4}$/.test(c))).toBe(true);
  });
});

describe('LookupSearch on ICD-9-CM', () => {
  test('finds v32 codes on a date they were valid; on a later date says when ICD-9-CM ended', async () => {
    const then = (await (await s.fetch('/lookupLtd?search=benign%20essential%20hypertension&codeSet=ICD-9%20CM&dateOfService=2015-01-01')).json()) as Reply;
    expect(codes(then)[0]).toBe('401.1');
    const now = (await (await s.fetch('/lookupLtd?search=benign%20essential%20hypertension&codeSet=ICD-9%20CM&dateOfService=2026-05-15')).json()) as Reply;
    expect(now.result.results.selectedDiagnosisTotal.count).toBe(0);
    expect(now.result.messages.map((m) => m.message).join(' ')).toMatch(/ICD-9-CM codes are valid until 2015-09-30/);
  });
});
