// Property: every ICD-10-CM code valid (billable) in FY2026 gets an answer from GemsMap: at least one mapped ICD-9-CM
// code, or not-mappable items with a message that says why. Codes newer than the FY2018 GEMs are bridged through the
// CDC conversion table and say so.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gemsMap } from '../../../src/engines/mapping/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { groupBy } from '../../../src/reference/queries/group-by.js';
import type { MapMessage } from '../../../src/schemas/mapping.js';
import { openSharedReference, sharedReferenceDbPath } from '../../helpers/reference-db.js';
import { icd10Cm } from './gem-files.js';

const FY2026 = '2025-10-01';
const BATCH = 5_000;

let ref: Reference;
let codes: string[];
beforeAll(async () => {
  ref = await openSharedReference();
  // The code set itself, listed straight from the database: the port has no "every code" query, nor needs one.
  const db = new Database(await sharedReferenceDbPath(), { readonly: true });
  codes = db
    .prepare(
      `SELECT code FROM code WHERE system = 'ICD10CM' AND billable = 1 AND valid_from <= ? AND (valid_to IS NULL OR valid_to >= ?)
       ORDER BY code`,
    )
    .pluck()
    .all(FY2026, FY2026) as string[];
  db.close();
});
afterAll(() => ref.close());

describe('every FY2026 billable ICD-10-CM code gets a map or a reason', () => {
  test('a mapped ICD-9-CM code, or not-mappable items with a message', () => {
    expect(codes.length).toBeGreaterThan(74_000);
    const outcome = { direct: 0, bridged: 0, notMappable: new Map<string, number>() };
    const failures: string[] = [];
    for (let i = 0; i < codes.length; i += BATCH) {
      const batch = codes.slice(i, i + BATCH);
      const { result, messages } = gemsMap(ref, batch, 'ICD-10 CM', FY2026);
      const items = groupBy(result, (item) => item.sourceCode);
      const said = groupBy(messages, (m: MapMessage) => m.sourceCode);
      for (const code of batch) {
        const shown = icd10Cm(code);
        const mine = items.get(shown) ?? [];
        const why = said.get(shown) ?? [];
        const mapped = mine.some((item) => item.isNotMappable === 0 && item.code !== '');
        if (mapped) {
          const bridged = why.some((m) => m.code === 'GEM_BRIDGED');
          outcome[bridged ? 'bridged' : 'direct'] += 1;
          continue;
        }
        if (
          mine.length === 0 ||
          mine.some((item) => item.isNotMappable !== 1 || item.code !== '') ||
          why.length === 0
        ) {
          failures.push(`${shown}: ${mine.length} items, messages ${why.map((m) => m.code).join(',') || 'none'}`);
          continue;
        }
        const reason = why.map((m) => m.code).join('+');
        outcome.notMappable.set(reason, (outcome.notMappable.get(reason) ?? 0) + 1);
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    // The breakdown of the FY2026 release (74,719 billable codes): direct GEM rows, conversion-table bridges, and the
    // reasons for the rest by their messages (NoDx rows, reached directly or by a bridge; new concepts the conversion
    // table says replaced nothing; links that lead to no GEM code).
    expect({ ...outcome, notMappable: Object.fromEntries(outcome.notMappable) }).toMatchInlineSnapshot(`
      {
        "bridged": 3423,
        "direct": 70440,
        "notMappable": {
          "GEM_BRIDGED+GEM_NO_MAP": 29,
          "GEM_NEW_CONCEPT": 81,
          "GEM_NOT_IN_GEM": 22,
          "GEM_NO_MAP": 724,
        },
      }
    `);
  });
});
