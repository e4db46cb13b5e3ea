import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readCsvClaims } from '../../src/readers/claims/csv.js';
import { readNdjsonClaims } from '../../src/readers/claims/ndjson.js';
import type { ReadItem } from '../../src/readers/claims/types.js';
import { readX12Claims } from '../../src/readers/claims/x12.js';
import { compileAcceptance } from '../../src/schemas/accept.js';
import { Claim, claimAcceptanceGaps, parseClaim } from '../../src/schemas/claim.js';
import { seededSampler } from '../bench/harness.js';

const baseClaims: readonly unknown[] = [
  {
    claimId: 'C1',
    claimType: 'professional',
    patient: { id: 'P1', birthDate: '1952-03-14', sex: 'F' },
    provider: { type: 'Physician', state: 'VA', zip: '22030-1234', contractorNumber: '12302' },
    payerCode: 'MCR',
    dateOfServiceFrom: '2026-05-15',
    icdType: 'ICD-10 CM',
    diagnoses: [{ code: 'E11.9' }, { code: 'I10', poa: 'Y' }],
    lines: [
      { lineNumber: 1, procedureCode: '99213', modifiers: ['25'], units: 1, dateOfService: '2026-05-15', diagnosisPointers: [1, 2], placeOfService: '11' },
      { lineNumber: 2, procedureCode: '36415', modifiers: [], units: 1.5 },
    ],
  },
  {
    claimId: 'I9',
    claimType: 'institutional',
    patient: { age: 0 },
    dateOfServiceFrom: '2024-02-29',
    dateOfServiceTo: '2024-03-02',
    diagnoses: [],
    lines: [{ lineNumber: 3, procedureCode: '0BH17EZ', modifiers: ['XU', 'LT', '59', 'RT'], units: 2, revenueCode: '0450' }],
  },
  { claimId: 'D', claimType: 'dme', dateOfServiceFrom: '2026-01-01', diagnoses: [], lines: [] },
];

/** Values that break a member in the ways a reader or a caller could. */
const oddValues: readonly unknown[] = [
  undefined, null, '', ' ', 'x', 'AB', '25', 'ab', '2026-02-29', '2024-02-29', '2026-13-01', '2026-5-1', 0, -1, 1, 1.5,
  150, 151, Number.NaN, Infinity, -Infinity, 2 ** 53, '1', true, [], [1], ['25', '59', 'XU', 'LT', 'RT'], {}, { code: '' },
  new Date(0), Object.create(null),
];

const clone = (v: unknown): unknown => structuredClone(v);

/** A random change to a claim: a member set to an odd value, removed, added, or the members reordered. */
function mutate(value: unknown, random: () => number, depth = 0): unknown {
  if (Array.isArray(value)) {
    if (value.length > 0 && random() < 0.7) {
      const i = Math.floor(random() * value.length);
      value[i] = mutate(value[i], random, depth + 1);
    } else if (random() < 0.5) {
      value.push(oddValues[Math.floor(random() * oddValues.length)]);
    } else {
      value.length = Math.max(0, value.length - 1);
    }
    return value;
  }
  if (typeof value !== 'object' || value === null || depth > 4) {
    return oddValues[Math.floor(random() * oddValues.length)];
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  const r = random();
  if (r < 0.45 && keys.length > 0) {
    const key = keys[Math.floor(random() * keys.length)]!;
    record[key] = random() < 0.5 ? mutate(record[key], random, depth + 1) : oddValues[Math.floor(random() * oddValues.length)];
  } else if (r < 0.6 && keys.length > 0) {
    delete record[keys[Math.floor(random() * keys.length)]!];
  } else if (r < 0.75) {
    record[random() < 0.5 ? 'extra' : 'units'] = oddValues[Math.floor(random() * oddValues.length)];
  } else if (r < 0.85 && keys.length > 1) {
    // Same members, another order.
    const entries = Object.entries(record).reverse();
    for (const k of keys) {
      delete record[k];
    }
    for (const [k, v] of entries) {
      record[k] = v;
    }
  } else if (keys.length > 0) {
    const key = keys[Math.floor(random() * keys.length)]!;
    record[key] = mutate(record[key], random, depth + 1);
  }
  return value;
}

describe('compileAcceptance', () => {
  it('understands every part of the claim schema', () => {
    expect(claimAcceptanceGaps).toEqual([]);
  });

  it('says yes only where zod accepts the value and returns an equal one, members in the same order', () => {
    const { accepts } = compileAcceptance(Claim);
    // Seeded, so a failure names a reproducible case.
    const { random } = seededSampler(20261126);
    let yes = 0;
    let zodYes = 0;
    for (let i = 0; i < 20_000; i++) {
      let value = clone(baseClaims[i % baseClaims.length]);
      const changes = Math.floor(random() * 3);
      for (let k = 0; k < changes; k++) {
        value = mutate(value, random);
      }
      const parsed = Claim.safeParse(value);
      zodYes += parsed.success ? 1 : 0;
      if (accepts(value)) {
        yes++;
        expect(parsed.success, JSON.stringify(value)).toBe(true);
        // JSON text compares member order as well as values.
        expect(JSON.stringify(parsed.data)).toBe(JSON.stringify(value));
        expect(parsed.data).toStrictEqual(value);
      }
    }
    // The predicate is not a "no" to everything: most values zod keeps as they are get the fast yes.
    expect(yes).toBeGreaterThan(zodYes * 0.5);
    expect(yes).toBeGreaterThan(5_000);
  });

  it('accepts the unchanged claims and refuses odd values zod refuses', () => {
    const { accepts } = compileAcceptance(Claim);
    for (const claim of baseClaims) {
      expect(accepts(clone(claim))).toBe(true);
    }
    const bad = clone(baseClaims[0]) as { lines: { units: unknown; lineNumber: unknown }[]; dateOfServiceFrom: string };
    bad.lines[0]!.units = 0;
    expect(accepts(bad)).toBe(false);
    expect(Claim.safeParse(bad).success).toBe(false);
    const leap = clone(baseClaims[2]) as { dateOfServiceFrom: string };
    leap.dateOfServiceFrom = '2026-02-29';
    expect(accepts(leap)).toBe(false);
    expect(Claim.safeParse(leap).success).toBe(false);
  });

  it('says no to members zod strips or reorders, so parseClaim still gives zod`s value', () => {
    const extra = { ...(clone(baseClaims[2]) as object), note: 'kept out' };
    expect(compileAcceptance(Claim).accepts(extra)).toBe(false);
    const parsed = parseClaim(extra);
    expect(parsed.success && 'note' in parsed.data).toBe(false);
    const { claimType, claimId, ...rest } = clone(baseClaims[2]) as Record<string, unknown>;
    const reordered = { claimType, claimId, ...rest };
    expect(compileAcceptance(Claim).accepts(reordered)).toBe(false);
    const again = parseClaim(reordered);
    expect(again.success && Object.keys(again.data)[0]).toBe('claimId');
  });

  it('accepts booleans as zod does, and nothing else for them', () => {
    const schema = z.object({ flag: z.boolean(), maybe: z.boolean().optional() });
    const { accepts, gaps } = compileAcceptance(schema);
    expect(gaps).toEqual([]);
    for (const value of [{ flag: true }, { flag: false, maybe: true }, { flag: 'true' }, { flag: 1 }, { maybe: false }, { flag: true, maybe: null }]) {
      const parsed = schema.safeParse(value);
      expect(accepts(value), JSON.stringify(value)).toBe(parsed.success);
    }
  });

  it('takes an enum`s values as zod does (a numeric enum`s reverse-mapped names are not values)', () => {
    const Level = { Low: 1, High: 2, 1: 'Low', 2: 'High' } as const;
    const schema = z.object({ level: z.enum(Level) });
    const { accepts, gaps } = compileAcceptance(schema);
    expect(gaps).toEqual([]);
    for (const level of [1, 2, 3, 'Low', 'High', '1']) {
      expect(accepts({ level }), String(level)).toBe(schema.safeParse({ level }).success);
    }
    expect(accepts({ level: 2 })).toBe(true);
  });

  it('lists the schema parts it does not understand, and says no for them', () => {
    const schema = z.object({ a: z.string().refine((s) => s !== 'x'), b: z.string().email(), c: z.union([z.string(), z.number()]) });
    const { accepts, gaps } = compileAcceptance(schema);
    expect(gaps).toEqual([expect.stringMatching(/^a: /), expect.stringMatching(/^b: /), expect.stringMatching(/^c: union/)]);
    expect(accepts({ a: 'y', b: 'a@b.org', c: 1 })).toBe(false);
    // A rule on the object as a whole is unknown to the predicate too: it says no, zod decides.
    const refined = z.object({ from: z.string(), to: z.string() }).refine((o) => o.from <= o.to);
    const compiled = compileAcceptance(refined);
    expect(compiled.gaps).toEqual([expect.stringMatching(/^\(root\): /)]);
    expect(compiled.accepts({ from: 'b', to: 'a' })).toBe(false);
    expect(refined.safeParse({ from: 'b', to: 'a' }).success).toBe(false);
  });
});

describe('the claim readers build claims the fast yes accepts', () => {
  const samples = join(import.meta.dirname, '../../samples/claims');
  const cases: [string, (file: string) => AsyncIterable<ReadItem>][] = [
    ['claims.csv', (f) => readCsvClaims(createReadStream(f), f)],
    ['claims.ndjson', (f) => readNdjsonClaims(createReadStream(f), f)],
    ['claims-837p.txt', (f) => readX12Claims(createReadStream(f), f)],
    ['claims-837i.txt', (f) => readX12Claims(createReadStream(f), f)],
  ];
  it.each(cases)('%s', async (name, read) => {
    const { accepts } = compileAcceptance(Claim);
    let claims = 0;
    for await (const item of read(join(samples, name))) {
      if (item.kind === 'claim') {
        claims++;
        expect(accepts(item.claim), item.claim.claimId).toBe(true);
      }
    }
    expect(claims).toBeGreaterThan(1);
  });
});
