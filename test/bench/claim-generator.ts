// Realistic claims for the engine and scrub benchmarks, drawn from the real rows of the built reference database:
// ICD-10-CM billable codes in force on the date; HCPCS/CPT codes with an MUE row in the claim's setting table; lab
// NCD HCPCS codes with diagnoses from their NCD's ICD-10 list; add-on codes with one of their listed primaries;
// ICD-10-PCS procedures, patient age/sex and POA on the institutional claims. Seeded: every run draws the same claims.
import Database from 'better-sqlite3';
import type { Claim, ClaimDiagnosis, ClaimLine, PoaIndicator } from '../../src/schemas/claim.js';
import { MueSetting } from '../../src/schemas/edits.js';

interface MueCode {
  readonly code: string;
  readonly value: number;
}

/** The code pools claims are drawn from. */
export interface ClaimPools {
  readonly dxPool: string[];
  readonly pcsPool: string[];
  readonly mueBySetting: { readonly practitioner: MueCode[]; readonly hospital: MueCode[] };
  readonly ncdDx: Map<string, string[]>;
  readonly addOns: Map<string, string[]>;
  readonly addOnPool: string[];
  readonly zipPool: string[];
  readonly labPool: { code: string; ncd: string }[];
}

/** A seeded random source. */
export interface Sampler {
  readonly random: () => number;
  readonly pick: <T>(items: readonly T[]) => T;
}

/** A code with a dot after its third character (as many claims carry ICD-10-CM codes). */
export const dotted = (code: string): string => (code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code);

/**
 * Reads the pools from the database.
 * @param poolSize - keep this many codes of each pool (a night's files repeat a few thousand codes); all when absent
 */
export function loadClaimPools(
  dbPath: string,
  date: string,
  poolSize: number | undefined,
  { random }: Sampler,
): ClaimPools {
  const db = new Database(dbPath, { readonly: true });
  const inForce = (a: string): string =>
    `${a}.valid_from <= @date AND (${a}.valid_to IS NULL OR ${a}.valid_to >= @date)`;
  const inRelease = (a: string): string => `JOIN source s ON s.id = ${a}.source_id AND ${inForce('s')}`;
  const codes = (system: string): string[] =>
    db
      .prepare(`SELECT c.code FROM code c WHERE c.system = '${system}' AND c.billable = 1 AND ${inForce('c')}`)
      .pluck()
      .all({ date }) as string[];
  /** A seeded sample of `poolSize` items (all of them without `--pool`). */
  function limited<T>(items: T[]): T[] {
    if (poolSize === undefined || items.length <= poolSize) {
      return items;
    }
    const copy = [...items];
    for (let i = 0; i < poolSize; i++) {
      const j = i + Math.floor(random() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy.slice(0, poolSize);
  }
  const dxPool = limited(codes('ICD10CM'));
  const pcsPool = limited(codes('ICD10PCS'));
  const muePool = (setting: MueSetting): MueCode[] =>
    db
      .prepare(
        `SELECT m.code, m.mue_value AS value FROM mue m ${inRelease('m')} WHERE m.setting = @setting AND ${inForce('m')}`,
      )
      .all({ date, setting }) as MueCode[];
  const mueBySetting = {
    practitioner: limited(muePool(MueSetting.practitioner)),
    hospital: limited(muePool(MueSetting.outpatientHospital)),
  };
  // Lab codes and their diagnoses come from the newest loaded lab NCD list, whether or not it covers the date: each
  // list answers for its own quarter, and no loaded date has both it (2026Q1) and the MUE tables (2026Q2). On such a
  // date the engine lists the lab checks as not checked; the claims keep their lab lines all the same.
  const newestLab = `s.id = (SELECT id FROM source WHERE dataset = 'ncd-lab' ORDER BY valid_from DESC LIMIT 1)`;
  const rowsOfNewest = (a: string): string =>
    `JOIN source s ON s.id = ${a}.source_id AND ${newestLab} AND ${a}.valid_to IS NULL`;
  const labHcpcs = db.prepare(`SELECT h.hcpcs AS code, h.ncd FROM ncd_lab_hcpcs h ${rowsOfNewest('h')}`).all() as {
    code: string;
    ncd: string;
  }[];
  const ncdDx = new Map<string, string[]>();
  for (const r of db
    .prepare(`SELECT i.ncd, i.icd10 FROM ncd_lab_icd10 i ${rowsOfNewest('i')} WHERE i.icd10 <> '@@@@@@@'`)
    .all() as { ncd: string; icd10: string }[]) {
    const list = ncdDx.get(r.ncd) ?? [];
    list.push(r.icd10);
    ncdDx.set(r.ncd, list);
  }
  const addOns = new Map<string, string[]>();
  for (const r of db
    .prepare(
      `SELECT a.add_on_code AS addOn, a.primary_code AS primaryCode FROM ncci_aoc a ${inRelease('a')} WHERE ${inForce('a')}`,
    )
    .all({ date }) as { addOn: string; primaryCode: string }[]) {
    const list = addOns.get(r.addOn) ?? [];
    if (r.primaryCode !== 'CCCCC') {
      list.push(r.primaryCode);
    }
    addOns.set(r.addOn, list);
  }
  const addOnPool = [...addOns.keys()];
  const zipPool = limited(
    db
      .prepare(`SELECT z.zip5 FROM zip5_locality z ${inRelease('z')} WHERE ${inForce('z')}`)
      .pluck()
      .all({ date }) as string[],
  );
  db.close();
  const labPool = labHcpcs.filter((l) => (ncdDx.get(l.ncd)?.length ?? 0) > 0);
  if (dxPool.length === 0 || mueBySetting.practitioner.length === 0 || labPool.length === 0 || addOnPool.length === 0) {
    throw new Error(
      `${dbPath} lacks ICD-10-CM, MUE or AOC rows in force on ${date}, or a lab NCD list: build it first`,
    );
  }
  return { dxPool, pcsPool, mueBySetting, ncdDx, addOns, addOnPool, zipPool, labPool };
}

/** Returns a maker of claim number `n` on `date` from the pools. */
export function claimMaker(pools: ClaimPools, { random, pick }: Sampler, date: string): (n: number) => Claim {
  const { dxPool, pcsPool, mueBySetting, ncdDx, addOns, addOnPool, zipPool, labPool } = pools;
  // Step 2: the claims. 85% professional (Physician, ZIP or state, pointers of up to 4 diagnoses per line), 15%
  // institutional (Facility, birth date and sex, POA indicators, revenue codes, some ICD-10-PCS lines).
  const int = (lo: number, hi: number): number => lo + Math.floor(random() * (hi - lo + 1));
  const POA: readonly PoaIndicator[] = ['Y', 'Y', 'Y', 'Y', 'N', 'U', 'W', '1'];

  function makeClaim(n: number): Claim {
    const institutional = random() < 0.15;
    const lineCount = int(1, 8);
    const dxCount = int(1, 12);
    const dx: string[] = [];
    const addDx = (code: string): number => {
      const at = dx.indexOf(code);
      if (at >= 0) {
        return at + 1;
      }
      if (dx.length >= dxCount) {
        return int(1, dx.length);
      }
      dx.push(code);
      return dx.length;
    };
    addDx(pick(dxPool));
    // Procedure codes first (lab lines bring their NCD's diagnoses), then the diagnoses are filled up.
    const procs: { code: string; units: number; pointers: number[] }[] = [];
    const mue = institutional ? mueBySetting.hospital : mueBySetting.practitioner;
    while (procs.length < lineCount) {
      const r = random();
      if (r < 0.15) {
        const lab = pick(labPool);
        const list = ncdDx.get(lab.ncd) ?? [];
        procs.push({
          code: lab.code,
          units: 1,
          pointers: [addDx(pick(list)), ...(random() < 0.5 ? [addDx(pick(list))] : [])],
        });
      } else if (r < 0.3) {
        const addOn = pick(addOnPool);
        const primaries = addOns.get(addOn) ?? [];
        if (primaries.length > 0 && random() < 0.8 && procs.length < lineCount - 1) {
          procs.push({ code: pick(primaries), units: 1, pointers: [] });
        }
        procs.push({ code: addOn, units: int(1, 2), pointers: [] });
      } else if (institutional && r < 0.45) {
        procs.push({ code: pick(pcsPool), units: 1, pointers: [] });
      } else {
        const m = pick(mue);
        procs.push({
          code: m.code,
          units: random() < 0.1 ? m.value + 1 : int(1, Math.max(1, Math.min(m.value, 3))),
          pointers: [],
        });
      }
    }
    while (dx.length < dxCount) {
      addDx(pick(dxPool));
    }
    const diagnoses: ClaimDiagnosis[] = dx.map((code) => ({
      code: random() < 0.3 ? dotted(code) : code,
      ...(institutional ? { poa: pick(POA) } : {}),
    }));
    const lines: ClaimLine[] = procs.map((p, i) => {
      const pointers = [...new Set([...p.pointers, ...Array.from({ length: int(1, 4) }, () => int(1, dx.length))])]
        .slice(0, 4)
        .sort((a, b) => a - b);
      return {
        lineNumber: i + 1,
        procedureCode: p.code,
        modifiers: [],
        units: p.units,
        ...(institutional ? { revenueCode: pick(['0300', '0301', '0320', '0360', '0450', '0510']) } : {}),
        ...(institutional ? {} : { diagnosisPointers: pointers, placeOfService: pick(['11', '11', '22', '81']) }),
      };
    });
    const birthYear = int(1930, 2024);
    return {
      claimId: `C${String(n)}`,
      claimType: institutional ? 'institutional' : 'professional',
      ...(institutional
        ? {
            patient: {
              birthDate: `${String(birthYear)}-0${String(int(1, 9))}-1${String(int(0, 9))}`,
              sex: pick(['M', 'F'] as const),
            },
          }
        : random() < 0.6
          ? { patient: { age: int(0, 95), sex: pick(['M', 'F', 'U'] as const) } }
          : {}),
      provider: {
        type: institutional ? 'Facility' : 'Physician',
        ...(random() < 0.7 && zipPool.length > 0
          ? { zip: pick(zipPool) }
          : { state: pick(['NY', 'CA', 'TX', 'FL', 'OH']) }),
      },
      dateOfServiceFrom: date,
      diagnoses,
      lines,
    };
  }
  return makeClaim;
}
