// The FHIR terminology facade (src/http/fhir): $lookup, $validate-code and $translate with query parameters (GET)
// and hand-written R4 Parameters bodies (POST), answered as application/fhir+json Parameters or OperationOutcome,
// behind the same credentials as the engine operations.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Reference } from '../../src/reference/index.js';
import { openSharedReference } from '../helpers/reference-db.js';
import { startServer, startSignedServer, type SignedServer } from './helpers.js';

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

const CM = 'http://hl7.org/fhir/sid/icd-10-cm';
/** A date the loaded FY2026 ICD-10-CM release covers (requests without a date are answered for today). */
const DAY = '2026-05-15';
const PCS = 'http://www.cms.gov/Medicare/Coding/ICD10';
const ICD9 = 'http://hl7.org/fhir/sid/icd-9-cm';
const HCPCS = 'https://www.cms.gov/Medicare/Coding/HCPCSReleaseCodeSets';

interface Param {
  name: string;
  valueString?: string;
  valueBoolean?: boolean;
  valueCode?: string;
  valueCoding?: { system?: string; code?: string; display?: string };
  part?: Param[];
}
interface Params {
  resourceType: string;
  parameter: Param[];
}

const post = (path: string, body: unknown): Promise<Response> =>
  s.fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/fhir+json' }, body: JSON.stringify(body) });
const param = (p: Params, name: string): Param | undefined => p.parameter.find((x) => x.name === name);
const prop = (p: Params, code: string): Param | undefined =>
  p.parameter.filter((x) => x.name === 'property').find((x) => x.part?.[0]?.valueCode === code)?.part?.[1];

describe('CodeSystem/$lookup', () => {
  test('GET with system and code: name, display, valid property', async () => {
    const res = await s.fetch(`/fhir/CodeSystem/$lookup?system=${encodeURIComponent(CM)}&code=E11.9&date=2025-06-01`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/fhir+json; charset=utf-8');
    const body = (await res.json()) as Params;
    expect(body.resourceType).toBe('Parameters');
    expect(param(body, 'name')?.valueString).toBe('ICD-10-CM');
    expect(param(body, 'display')?.valueString).toMatch(/Type 2 diabetes mellitus without complications/i);
    expect(prop(body, 'valid')?.valueBoolean).toBe(true);
  });

  test('POST Parameters with a valueCoding; PCS and HCPCS systems', async () => {
    const res = await post('/fhir/CodeSystem/$lookup', {
      resourceType: 'Parameters',
      parameter: [{ name: 'coding', valueCoding: { system: PCS, code: '0DTJ4ZZ' } }],
    });
    expect(res.status).toBe(200);
    expect(param((await res.json()) as Params, 'name')?.valueString).toBe('ICD-10-PCS');
    const hcpcs = await post('/fhir/CodeSystem/$lookup', {
      resourceType: 'Parameters',
      parameter: [
        { name: 'system', valueUri: HCPCS },
        { name: 'code', valueCode: 'E0114' },
      ],
    });
    expect(hcpcs.status).toBe(200);
    expect(param((await hcpcs.json()) as Params, 'display')?.valueString).toMatch(/crutch/i);
  });

  test('a header code is found but not valid; an unknown code is 404 OperationOutcome', async () => {
    const header = (await (await s.fetch(`/fhir/CodeSystem/$lookup?system=${CM}&code=E11&date=${DAY}`)).json()) as Params;
    expect(prop(header, 'valid')?.valueBoolean).toBe(false);
    expect(prop(header, 'invalid-reason')?.valueCode).toBe('Invalid');
    const res = await s.fetch(`/fhir/CodeSystem/$lookup?system=${CM}&code=Q99.999&date=${DAY}`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ severity: 'error', code: 'not-found' }] });
  });

  test('400s: unknown system, missing code, a body that is not Parameters; 401 without credentials', async () => {
    const sys = await s.fetch('/fhir/CodeSystem/$lookup?system=http://snomed.info/sct&code=1');
    expect(sys.status).toBe(400);
    // Each issue names its input parameter (`expression`), as the ServiceStack envelope's errors name their field.
    expect(await sys.json()).toMatchObject({ issue: [{ code: 'not-supported', expression: ['system'] }] });
    const missing = await s.fetch(`/fhir/CodeSystem/$lookup?system=${CM}`);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ issue: [{ code: 'required', expression: ['code'] }] });
    // A date must be a day that exists (2026-02-30 was answered as a date past every release); a dateTime is its day.
    for (const date of ['2026-02-30', '2026-00-00', '2026-13-45', '2026-05-15junk', '2026-05']) {
      const res = await s.fetch(`/fhir/CodeSystem/$validate-code?url=${CM}&code=E11.9&date=${date}`);
      expect(res.status, date).toBe(400);
      expect(await res.json()).toMatchObject({ issue: [{ code: 'invalid', diagnostics: expect.stringContaining(`date "${date}"`) as unknown, expression: ['date'] }] });
    }
    const stamped = await s.fetch(`/fhir/CodeSystem/$validate-code?url=${CM}&code=E11.9&date=${DAY}T23:30:00-05:00`);
    expect(stamped.status).toBe(200);
    const bad = await post('/fhir/CodeSystem/$lookup', { resourceType: 'Patient' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ issue: [{ code: 'structure' }] });
    const anon = await fetch(`${s.base}/fhir/CodeSystem/$lookup?system=${CM}&code=E11.9`);
    expect(anon.status).toBe(401);
    const denied = (await anon.json()) as { issue: Record<string, unknown>[] };
    expect(denied).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'security' }] });
    expect(denied.issue[0]?.['expression']).toBeUndefined();
    expect((await s.fetch('/fhir/CodeSystem/$expand')).status).toBe(404);
    expect((await s.fetch('/fhir/CodeSystem/$lookup', { method: 'DELETE' })).status).toBe(405);
  });
});

describe('CodeSystem/$validate-code', () => {
  test('a codeableConcept: its supported coding is checked, with its display; a null code is no code', async () => {
    const validate = async (parameter: unknown[]): Promise<{ status: number; body: Params }> => {
      const res = await post('/fhir/CodeSystem/$validate-code', { resourceType: 'Parameters', parameter: [...parameter, { name: 'date', valueDate: DAY }] });
      return { status: res.status, body: (await res.json()) as Params };
    };
    // A SNOMED coding first, the ICD-10-CM one second: the second is checked (the first was, and refused).
    const concept = (display: string): unknown => ({
      name: 'codeableConcept',
      valueCodeableConcept: { coding: [{ system: 'http://snomed.info/sct', code: '44054006' }, { system: CM, code: 'E11.9', display }] },
    });
    const right = await validate([concept('Type 2 diabetes mellitus without complications')]);
    expect(right.status).toBe(200);
    expect(param(right.body, 'result')?.valueBoolean).toBe(true);
    // Its display is checked as a coding's is (it was ignored).
    const wrong = await validate([concept('nope')]);
    expect(param(wrong.body, 'result')?.valueBoolean).toBe(false);
    expect(param(wrong.body, 'message')?.valueString).toMatch(/The display "nope" does not match/);
    // A null code is no code (it was checked as the code "NUL.L").
    const nullCode = await validate([{ name: 'url', valueUri: CM }, { name: 'code', valueCode: null }]);
    expect(nullCode.status).toBe(400);
    expect(nullCode.body).toMatchObject({ issue: [{ code: 'required' }] });
  });

  test('valid, header, wrong display; ICD-9 on a date before Oct 2015', async () => {
    const ok = (await (await s.fetch(`/fhir/CodeSystem/$validate-code?url=${CM}&code=S72.001A&date=${DAY}`)).json()) as Params;
    expect(param(ok, 'result')?.valueBoolean).toBe(true);
    const seventh = (await (
      await post('/fhir/CodeSystem/$validate-code', {
        resourceType: 'Parameters',
        parameter: [
          { name: 'url', valueUri: CM },
          { name: 'code', valueCode: 'W21.89A' },
          { name: 'date', valueDate: DAY },
        ],
      })
    ).json()) as Params;
    expect(param(seventh, 'result')?.valueBoolean).toBe(false);
    expect(param(seventh, 'message')?.valueString).toContain('W21.89XA');
    const display = (await (
      await s.fetch(`/fhir/CodeSystem/$validate-code?url=${CM}&code=E11.9&display=Something%20else&date=${DAY}`)
    ).json()) as Params;
    expect(param(display, 'result')?.valueBoolean).toBe(false);
    // After the newest loaded fiscal year (FY2026 ends 2026-09-30) validity is unknown: never a pass.
    const later = (await (
      await s.fetch(`/fhir/CodeSystem/$validate-code?url=${CM}&code=E11.9&date=2026-10-01`)
    ).json()) as Params;
    expect(param(later, 'result')?.valueBoolean).toBe(false);
    expect(param(later, 'message')?.valueString).toBe(
      'No ICD-10-CM release is loaded for 2026-10-01 (the newest loaded, FY2026, ends 2026-09-30): the validity of E11.9 on that date is unknown.',
    );
    const icd9 = (await (
      await s.fetch(`/fhir/CodeSystem/$validate-code?url=${ICD9}&code=250.00&date=2014-01-01`)
    ).json()) as Params;
    expect(param(icd9, 'result')?.valueBoolean).toBe(true);
  });

  test('honours a version: answered within that release, a date outside it or a release not loaded is a 400', async () => {
    // E11.A is new in FY2026 (2025-10-01): not in FY2024, whatever today is.
    const fy2024 = (await (await s.fetch(`/fhir/CodeSystem/$validate-code?url=${CM}&code=E11.A&version=FY2024`)).json()) as Params;
    expect(param(fy2024, 'result')?.valueBoolean).toBe(false);
    const fy2026 = (await (await s.fetch(`/fhir/CodeSystem/$validate-code?url=${CM}&code=E11.A&version=fy2026&date=${DAY}`)).json()) as Params;
    expect(param(fy2026, 'result')?.valueBoolean).toBe(true);
    const outside = await s.fetch(`/fhir/CodeSystem/$validate-code?url=${CM}&code=E11.A&version=FY2024&date=${DAY}`);
    expect(outside.status).toBe(400);
    expect(JSON.stringify(await outside.json())).toContain('date 2026-05-15 is outside version FY2024 of ICD-10-CM (2023-10-01 to 2024-09-30).');
    const missing = await s.fetch(`/fhir/CodeSystem/$lookup?system=${CM}&code=E11.9&version=FY2011`);
    expect(missing.status).toBe(400);
    expect(JSON.stringify(await missing.json())).toMatch(/version \\"FY2011\\" of ICD-10-CM is not loaded \(loaded: FY2024, FY2025, FY2026\)/);
    // $lookup answers the version asked for (a Coding's version too).
    const looked = (await (await s.fetch(`/fhir/CodeSystem/$lookup?system=${CM}&code=E11.9&version=FY2025`)).json()) as Params;
    expect(param(looked, 'version')?.valueString).toBe('FY2025');
  });
});

describe('ConceptMap/$translate', () => {
  test('A02.1 → two narrower matches (combination) in ICD-9-CM', async () => {
    const res = await post('/fhir/ConceptMap/$translate', {
      resourceType: 'Parameters',
      parameter: [
        { name: 'system', valueUri: CM },
        { name: 'code', valueCode: 'A02.1' },
        { name: 'targetsystem', valueUri: ICD9 },
      ],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Params;
    expect(param(body, 'result')?.valueBoolean).toBe(true);
    const matches = body.parameter.filter((p) => p.name === 'match');
    expect(matches).toHaveLength(2);
    for (const m of matches) {
      expect(m.part?.[0]).toEqual({ name: 'equivalence', valueCode: 'narrower' });
      expect(m.part?.[1]?.valueCoding?.system).toBe(ICD9);
    }
  });

  test('a target value set is a code system\'s whole set or a 400: it is never ignored', async () => {
    const other = await s.fetch(`/fhir/ConceptMap/$translate?system=${CM}&code=E11.9&target=http://example.org/x`);
    expect(other.status).toBe(400);
    expect(JSON.stringify(await other.json())).toContain('No GEM translates ICD-10-CM to \\"http://example.org/x\\".');
    for (const target of [ICD9, `${ICD9}?fhir_vs`]) {
      const res = (await (await s.fetch(`/fhir/ConceptMap/$translate?system=${CM}&code=E11.9&target=${encodeURIComponent(target)}`)).json()) as Params;
      expect(res.parameter.find((p) => p.name === 'match')?.part?.[1]?.valueCoding).toMatchObject({ system: ICD9, code: '250.00' });
    }
  });

  test('exact → equivalent; approximate → wider or inexact; GET form', async () => {
    const exact = (await (await s.fetch(`/fhir/ConceptMap/$translate?system=${CM}&code=A00.0`)).json()) as Params;
    const m = exact.parameter.find((p) => p.name === 'match');
    expect(m?.part?.[0]?.valueCode).toBe('equivalent');
    expect(m?.part?.[1]?.valueCoding).toMatchObject({ system: ICD9, code: '001.0' });
    const approx = (await (await s.fetch(`/fhir/ConceptMap/$translate?system=${CM}&code=E11.9`)).json()) as Params;
    const e = approx.parameter.find((p) => p.name === 'match');
    expect(['wider', 'inexact', 'equivalent']).toContain(e?.part?.[0]?.valueCode);
    expect(e?.part?.[1]?.valueCoding?.code).toBe('250.00');
  });

  test('no map → unmatched and result false; HCPCS is not translatable (400)', async () => {
    const none = (await (await s.fetch(`/fhir/ConceptMap/$translate?system=${PCS}&code=XW033E5`)).json()) as Params;
    expect(param(none, 'result')?.valueBoolean).toBe(false);
    expect(none.parameter.find((p) => p.name === 'match')?.part).toEqual([{ name: 'equivalence', valueCode: 'unmatched' }]);
    const res = await s.fetch(`/fhir/ConceptMap/$translate?system=${HCPCS}&code=E0114`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ issue: [{ code: 'not-supported' }] });
  });
});

test('without a reference database the facade answers 503 OperationOutcome', async () => {
  const bare = await startServer();
  try {
    const res = await fetch(`${bare.base}/fhir/CodeSystem/$lookup?system=${CM}&code=E11.9`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'transient' }] });
  } finally {
    await bare.close();
  }
});
