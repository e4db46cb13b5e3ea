// Integration: the committed contractors table against the CMS ZIP Code to Carrier Locality file (January 2026) in
// ../shared/data, whose CARRIER column holds the Part B contractor number of every ZIP (55 distinct values).
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { readXlsxRows } from '../../../src/readers/xlsx.js';
import {
  CONTRACTORS_FILE,
  parseContractors,
  type MedicareContractorsFile,
} from '../../../src/refdata/loaders/medicare-contractors.js';
import { readFileSync } from 'node:fs';
import { officialDataDir } from '../../helpers/build.js';

/** State → the set of CARRIER numbers its ZIPs carry. */
const carriersByState = new Map<string, Set<string>>();
const carriers = new Set<string>();
/** The ZIP5 file splits Kansas and Missouri into east/west pseudo-states. */
const SPLIT: Record<string, string> = { EK: 'KS', WK: 'KS', EM: 'MO', WM: 'MO' };
const pseudo = new Set<string>();
let data: MedicareContractorsFile;

beforeAll(async () => {
  data = parseContractors(readFileSync(CONTRACTORS_FILE, 'utf8'), 'data/reference/medicare-contractors.json');
  for await (const row of readXlsxRows(join(officialDataDir, 'zip-locality/ZIP5_JAN2026.xlsx'), 'ZIP5_JAN2026')) {
    const [state, , carrier] = row.cells;
    if (row.rowNumber === 1 || !state || !carrier) {
      continue;
    }
    carriers.add(carrier);
    if (SPLIT[state]) {
      pseudo.add(state);
    }
    const st = SPLIT[state] ?? state;
    const set = carriersByState.get(st) ?? new Set<string>();
    set.add(carrier);
    carriersByState.set(st, set);
  }
});

describe('medicare contractors vs the ZIP5 carrier file (real data)', () => {
  test('the ZIP5 file has 55 distinct CARRIER numbers, and writes Kansas and Missouri as EK/WK and EM/WM', () => {
    expect(carriers.size).toBe(55);
    expect([...pseudo].sort()).toEqual(['EK', 'EM', 'WK', 'WM']);
    expect([...(carriersByState.get('KS') ?? [])]).toEqual(['05202']);
    expect([...(carriersByState.get('MO') ?? [])]).toEqual(['05302']);
  });

  test('every Part B contractor number taken from CMS pages is a ZIP5 carrier of the same state', () => {
    const pairs = data.partBContractorNumbers.map((p) => [
      p.state,
      p.contractorNumber,
      carriersByState.get(p.state)?.has(p.contractorNumber) ?? false,
    ]);
    expect(pairs).toEqual([
      ['AL', '10112', true],
      ['AK', '02102', true],
      ['AZ', '03102', true],
      ['AR', '07102', true],
      ['CA', '01112', true],
      ['CA', '01182', true],
    ]);
    // California is the one state of these whose ZIPs carry two numbers, as the Locality Key splits it by county.
    expect([...(carriersByState.get('CA') ?? [])].sort()).toEqual(['01112', '01182']);
  });

  test('each A/B jurisdiction state has ZIP5 carriers, and no state is in two A/B jurisdictions', () => {
    const states = data.abJurisdictions.flatMap((j) => j.states);
    expect(states.filter((s) => !carriersByState.has(s))).toEqual([]);
    expect(new Set(states).size).toBe(states.length);
  });
});
