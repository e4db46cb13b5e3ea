// Read side of the claim-edit tables: NCCI MUE values by setting, add-on code edits (by add-on or by primary code),
// PTP code pairs, the lab NCD code lists (NCDs of a HCPCS code, resolution of an ICD-10 code under an NCD), and
// ZIP → state, carrier and locality. Every lookup takes a date of service and answers from the release in force on
// that date only (domain.md section 8: no release for the date is `no_data`, never a pass; `releaseOn` tells the
// two apart); within it, rows that carry their own dates (AOC, PTP, NCD lists) must also be in force on the date.
// Statements are prepared once; codes may be passed dotted or in lower case.
import type Database from 'better-sqlite3';
import { normaliseCode } from '../../schemas/code-systems.js';
import {
  MueSetting,
  NCD_ALL_OTHER_CODES,
  NcdResolution,
  PtpSetting,
  type NcdResolutionCode,
} from '../../schemas/edits.js';
import { changeDatesSearch, changesBy, perPeriod } from './periods.js';
import { prepareOn, type Statement } from './tables.js';

export { MueSetting, PtpSetting };

/** A release of a dataset, as the `source` table records it. */
export interface EditRelease {
  readonly dataset: string;
  readonly release: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly file: string;
}

/** The MUE of a code in one setting. */
export interface MueRow {
  readonly setting: MueSetting;
  readonly code: string;
  /** Units allowed (per line for MAI 1, per date of service for MAI 2 and 3). */
  readonly value: number;
  /** MUE adjudication indicator: 1 line edit, 2 date-of-service edit (policy), 3 date-of-service edit (clinical). */
  readonly mai: 1 | 2 | 3;
  /** The indicator as the table prints it, e.g. `2 Date of Service Edit: Policy`. */
  readonly maiText: string;
  readonly rationale: string | null;
  readonly release: string;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** One add-on code edit: an add-on code and one of its primary codes. */
export interface AocRow {
  readonly addOnCode: string;
  /** `CCCCC` for type 2 edits: the contractor defines the primary codes. */
  readonly primaryCode: string;
  readonly editType: 1 | 2 | 3;
  readonly addOnDeleted: string | null;
  readonly primaryDeleted: string | null;
  /** Edit effective date. */
  readonly validFrom: string;
  /** Edit deletion date (last day in force); `null` while in force. */
  readonly validTo: string | null;
  readonly notes: string | null;
  readonly release: string;
}

/** One PTP edit. */
export interface PtpRow {
  readonly setting: PtpSetting;
  readonly column1: string;
  readonly column2: string;
  /** The file's `*`: the edit existed before 1996. */
  readonly pre1996: boolean;
  readonly validFrom: string;
  /** Deletion date (last day in force); `null` for `*`. */
  readonly validTo: string | null;
  /** 0 no modifier bypasses the edit, 1 an NCCI PTP-associated modifier may, 9 not applicable (no edit). */
  readonly modifierIndicator: 0 | 1 | 9;
  readonly rationale: string | null;
  readonly release: string;
}

/** A lab NCD that lists a HCPCS code. */
export interface LabNcdForCode {
  readonly ncd: string;
  readonly description: string;
  readonly hcpcs: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly release: string;
}

/** How a lab NCD resolves an ICD-10 code. */
export interface NcdIcd10Resolution {
  readonly ncd: string;
  readonly icd10: string;
  readonly resolution: NcdResolutionCode;
  readonly meaning: (typeof NcdResolution)[NcdResolutionCode];
  /** `listed`: the NCD names the code; `all-other`: the NCD's `@@@@@@@` row (every code it does not list). */
  readonly matched: 'listed' | 'all-other';
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly release: string;
}

/** A row of a lab NCD's ICD-10 list with its release's interval (the in-memory index of ncdIcd10Resolution). */
interface NcdIcd10Row {
  readonly icd10: string;
  readonly resolution: NcdResolutionCode;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly release: string;
  readonly releaseFrom: string;
  readonly releaseTo: string | null;
}

/** The carrier locality of a ZIP code. */
export interface ZipLocality {
  readonly zip5: string;
  /** The state as the ZIP5 file writes it: Kansas and Missouri are split by region (`EK`/`WK`, `EM`/`WM`). */
  readonly state: string;
  /** The USPS state (`KS`, `MO` for the regional codes). */
  readonly uspsState: string;
  /** Part B MAC contractor number, e.g. `01112`. */
  readonly carrier: string;
  readonly locality: string;
  readonly ruralInd: string | null;
  readonly labCbLocality: string | null;
  readonly ruralInd2: string | null;
  /** The ZIP is split between localities: the ZIP9 file decides (not loaded). */
  readonly plus4: boolean;
  readonly partBDrugIndicator: string | null;
  readonly release: string;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** The lookups over the edit tables. */
export interface EditQueries {
  /** The release of `dataset` (e.g. `mue-practitioner`, `ncci-ptp-hospital`) in force on `date`, if loaded. */
  releaseOn(dataset: string, date: string): EditRelease | undefined;
  /** The MUE of `code` in `setting` on `date`; `undefined` when the table in force has no row (or none is loaded). */
  mue(code: string, date: string, setting: MueSetting): MueRow | undefined;
  /** The edits of an add-on code in force on `date`: one row per primary code. */
  aocForAddOn(addOnCode: string, date: string): readonly AocRow[];
  /** The add-on edits naming `primaryCode` as a primary code on `date` (type 2 `CCCCC` rows name none). */
  aocForPrimary(primaryCode: string, date: string): readonly AocRow[];
  /** The PTP edits whose column 1 is `column1`, in force on `date`, by column 2. */
  ptpForColumn1(column1: string, date: string, setting: PtpSetting): PtpRow[];
  /** The PTP edit of the ordered pair (column 1, column 2) in force on `date`. */
  ptpPair(column1: string, column2: string, date: string, setting: PtpSetting): PtpRow | undefined;
  /** The lab NCDs whose HCPCS list holds `hcpcs` on `date`. */
  labNcdsForHcpcs(hcpcs: string, date: string): readonly LabNcdForCode[];
  /** How NCD `ncd` resolves `icd10` on `date`: its listed row, else its all-other-codes row. */
  ncdIcd10Resolution(ncd: string, icd10: string, date: string): NcdIcd10Resolution | undefined;
  /** State, carrier and locality of a ZIP (5 digits, or ZIP+4 of which the first 5 count) on `date`. */
  zipLocality(zip: string, date: string): ZipLocality | undefined;
  /** The Part B carriers (contractor numbers) the ZIP5 file in force on `date` gives the ZIPs of a USPS state. */
  carriersOfState(state: string, date: string): { readonly carriers: string[]; readonly release: string } | undefined;
}

/** Rows whose source release is in force on @date. */
const inRelease = (alias: string): string =>
  `JOIN source s ON s.id = ${alias}.source_id AND s.valid_from <= @date AND (s.valid_to IS NULL OR s.valid_to >= @date)`;
/** Rows whose own interval holds @date. */
const inForce = (alias: string): string =>
  `${alias}.valid_from <= @date AND (${alias}.valid_to IS NULL OR ${alias}.valid_to >= @date)`;

/**
 * Prepares the edit lookups on a reference database. Tables of loaders that were not built answer nothing.
 * @param db - the reference database, opened read-only by the caller
 */
export function createEditQueries(db: Database.Database): EditQueries {
  const prepare = (table: string, sql: string): Statement => prepareOn(db, table, sql);

  const release = db.prepare(
    `SELECT dataset, release, valid_from AS validFrom, valid_to AS validTo, file FROM source
     WHERE dataset = @dataset AND valid_from <= @date AND (valid_to IS NULL OR valid_to >= @date)
     ORDER BY valid_from DESC, id DESC LIMIT 1`,
  );
  const mue = prepare(
    'mue',
    `SELECT m.setting, m.code, m.mue_value AS value, m.mai, m.mai_text AS maiText, m.rationale, s.release,
            m.valid_from AS validFrom, m.valid_to AS validTo
     FROM mue m ${inRelease('m')} WHERE m.setting = @setting AND m.code = @code AND ${inForce('m')}
     ORDER BY m.valid_from DESC LIMIT 1`,
  );
  const aocCols = `a.add_on_code, a.primary_code, a.edit_type, a.add_on_deleted, a.primary_deleted, a.valid_from, a.valid_to,
    a.notes, s.release FROM ncci_aoc a ${inRelease('a')}`;
  const aocByAddOn = prepare(
    'ncci_aoc',
    `SELECT ${aocCols} WHERE a.add_on_code = @code AND ${inForce('a')} ORDER BY a.primary_code, a.row_no`,
  );
  const aocByPrimary = prepare(
    'ncci_aoc',
    `SELECT ${aocCols} WHERE a.primary_code = @code AND ${inForce('a')} ORDER BY a.add_on_code, a.row_no`,
  );
  const ptpCols = `p.setting, p.column1, p.column2, p.pre_1996, p.valid_from, p.valid_to, p.modifier_indicator, p.rationale, s.release
    FROM ncci_ptp p ${inRelease('p')}`;
  const ptpByColumn1 = prepare(
    'ncci_ptp',
    `SELECT ${ptpCols} WHERE p.setting = @setting AND p.column1 = @column1 AND ${inForce('p')} ORDER BY p.column2, p.valid_from`,
  );
  const ptpPair = prepare(
    'ncci_ptp',
    `SELECT ${ptpCols} WHERE p.setting = @setting AND p.column1 = @column1 AND p.column2 = @column2 AND ${inForce('p')}
     ORDER BY p.valid_from DESC LIMIT 1`,
  );
  const ncdsForHcpcs = prepare(
    'ncd_lab_hcpcs',
    `SELECT h.ncd, n.description, h.hcpcs, h.valid_from AS validFrom, h.valid_to AS validTo, s.release
     FROM ncd_lab_hcpcs h ${inRelease('h')} JOIN ncd_lab n ON n.ncd = h.ncd AND n.source_id = h.source_id
     WHERE h.hcpcs = @code AND ${inForce('h')} ORDER BY h.ncd`,
  );
  // A lab NCD's ICD-10 rows are read once per connection, all releases and dates, when the NCD is first asked about:
  // a claim file asks about thousands of (NCD, diagnosis) pairs, and one query per pair (about 10 us, and the
  // answers past any memory's bound asked again) was the validation engine's largest cost.
  const ncdIcd10Rows = prepare(
    'ncd_lab_icd10',
    `SELECT i.icd10, i.resolution, i.valid_from AS validFrom, i.valid_to AS validTo, s.release,
            s.valid_from AS releaseFrom, s.valid_to AS releaseTo
     FROM ncd_lab_icd10 i JOIN source s ON s.id = i.source_id WHERE i.ncd = @ncd`,
  );
  const ncdIndexes = new Map<string, Map<string, NcdIcd10Row[]>>();
  const ncdIndex = (ncd: string): Map<string, NcdIcd10Row[]> => {
    let index = ncdIndexes.get(ncd);
    if (index === undefined) {
      index = new Map();
      const intern = new Map<string, string>();
      const same = (v: string): string => intern.get(v) ?? (intern.set(v, v), v);
      for (const r of ncdIcd10Rows.all({ ncd }) as NcdIcd10Row[]) {
        const row: NcdIcd10Row = {
          icd10: r.icd10,
          resolution: r.resolution,
          validFrom: same(r.validFrom),
          validTo: r.validTo === null ? null : same(r.validTo),
          release: same(r.release),
          releaseFrom: same(r.releaseFrom),
          releaseTo: r.releaseTo === null ? null : same(r.releaseTo),
        };
        const rows = index.get(r.icd10);
        if (rows === undefined) {
          index.set(r.icd10, [row]);
        } else {
          rows.push(row);
        }
      }
      // Latest first: the row a date finds is the first in force (as ORDER BY valid_from DESC LIMIT 1).
      for (const rows of index.values()) {
        rows.sort((a, b) => (a.validFrom < b.validFrom ? 1 : a.validFrom > b.validFrom ? -1 : 0));
      }
      ncdIndexes.set(ncd, index);
    }
    return index;
  };
  /** The first row of `rows` whose release and own interval hold `date`. */
  const ncdRowOn = (rows: readonly NcdIcd10Row[] | undefined, date: string): NcdIcd10Row | undefined =>
    rows?.find(
      (r) =>
        r.releaseFrom <= date &&
        (r.releaseTo === null || r.releaseTo >= date) &&
        r.validFrom <= date &&
        (r.validTo === null || r.validTo >= date),
    );
  const zip = prepare(
    'zip5_locality',
    `SELECT z.zip5, z.state, z.usps_state AS uspsState, z.carrier, z.locality, z.rural_ind AS ruralInd, z.lab_cb_locality AS labCbLocality,
            z.rural_ind2 AS ruralInd2, z.plus4_flag, z.part_b_drug_indicator AS partBDrugIndicator, s.release,
            z.valid_from AS validFrom, z.valid_to AS validTo
     FROM zip5_locality z ${inRelease('z')} WHERE z.zip5 = @zip AND ${inForce('z')} ORDER BY z.valid_from DESC LIMIT 1`,
  );
  const stateCarriers = prepare(
    'zip5_locality',
    `SELECT DISTINCT z.carrier, s.release FROM zip5_locality z ${inRelease('z')}
     WHERE z.usps_state = @state AND ${inForce('z')} ORDER BY z.carrier`,
  );
  // The searches below are kept per period, not per date (periods.ts). The change dates are read once, per table or
  // per key of `where`.
  const changesOf = (table: string, where?: string): ((key: string) => readonly string[]) =>
    changesBy(changeDatesSearch(db, table, where ?? '1'), where !== undefined);
  const mueChanges = changesOf('mue');
  const aocChanges = changesOf('ncci_aoc');
  const muePeriods = (): ((key: string, date: string, search: () => MueRow | null) => MueRow | null) =>
    perPeriod<MueRow | null>(() => mueChanges(''));
  const mueInPeriod: Readonly<Record<MueSetting, ReturnType<typeof muePeriods>>> = {
    [MueSetting.practitioner]: muePeriods(),
    [MueSetting.outpatientHospital]: muePeriods(),
    [MueSetting.dme]: muePeriods(),
  };
  const aocByAddOnInPeriod = perPeriod<readonly AocRow[]>(() => aocChanges(''));
  const aocByPrimaryInPeriod = perPeriod<readonly AocRow[]>(() => aocChanges(''));
  type StateCarriers = { readonly carriers: string[]; readonly release: string };
  const carriersInPeriod = perPeriod<StateCarriers | null>(changesOf('zip5_locality', 'usps_state = @key'));
  const zipChanges = changesOf('zip5_locality');
  const zipInPeriod = perPeriod<ZipLocality | null>(() => zipChanges(''));
  const labNcdChanges = changesOf('ncd_lab_hcpcs');
  const labNcdsInPeriod = perPeriod<readonly LabNcdForCode[]>(() => labNcdChanges(''));

  interface AocDb {
    add_on_code: string;
    primary_code: string;
    edit_type: 1 | 2 | 3;
    add_on_deleted: string | null;
    primary_deleted: string | null;
    valid_from: string;
    valid_to: string | null;
    notes: string | null;
    release: string;
  }
  const toAoc = (r: AocDb): AocRow => ({
    addOnCode: r.add_on_code,
    primaryCode: r.primary_code,
    editType: r.edit_type,
    addOnDeleted: r.add_on_deleted,
    primaryDeleted: r.primary_deleted,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    notes: r.notes,
    release: r.release,
  });
  interface PtpDb {
    setting: PtpSetting;
    column1: string;
    column2: string;
    pre_1996: number;
    valid_from: string;
    valid_to: string | null;
    modifier_indicator: 0 | 1 | 9;
    rationale: string | null;
    release: string;
  }
  const toPtp = (r: PtpDb): PtpRow => ({
    setting: r.setting,
    column1: r.column1,
    column2: r.column2,
    pre1996: r.pre_1996 === 1,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    modifierIndicator: r.modifier_indicator,
    rationale: r.rationale,
    release: r.release,
  });

  return {
    releaseOn: (dataset, date) => release.get({ dataset, date }) as EditRelease | undefined,
    mue: (code, date, setting) => {
      const c = normaliseCode(code);
      return (
        mueInPeriod[setting](c, date, () => (mue.get({ code: c, date, setting }) as MueRow | undefined) ?? null) ??
        undefined
      );
    },
    aocForAddOn: (code, date) => {
      const c = normaliseCode(code);
      return aocByAddOnInPeriod(c, date, () => (aocByAddOn.all({ code: c, date }) as AocDb[]).map(toAoc));
    },
    aocForPrimary: (code, date) => {
      const c = normaliseCode(code);
      return aocByPrimaryInPeriod(c, date, () => (aocByPrimary.all({ code: c, date }) as AocDb[]).map(toAoc));
    },
    ptpForColumn1: (column1, date, setting) =>
      (ptpByColumn1.all({ column1: normaliseCode(column1), date, setting }) as PtpDb[]).map(toPtp),
    ptpPair: (column1, column2, date, setting) => {
      const r = ptpPair.get({ column1: normaliseCode(column1), column2: normaliseCode(column2), date, setting }) as
        PtpDb | undefined;
      return r ? toPtp(r) : undefined;
    },
    labNcdsForHcpcs: (hcpcs, date) => {
      const code = normaliseCode(hcpcs);
      return labNcdsInPeriod(code, date, () => ncdsForHcpcs.all({ code, date }) as LabNcdForCode[]);
    },
    ncdIcd10Resolution: (ncd, icd10, date) => {
      const code = normaliseCode(icd10);
      const key = ncd.trim().toUpperCase();
      const index = ncdIndex(key);
      const listed = ncdRowOn(index.get(code), date);
      const r = listed ?? ncdRowOn(index.get(NCD_ALL_OTHER_CODES), date);
      if (r === undefined) {
        return undefined;
      }
      return {
        ncd: key,
        icd10: code,
        resolution: r.resolution,
        meaning: NcdResolution[r.resolution],
        matched: r.icd10 === NCD_ALL_OTHER_CODES ? 'all-other' : 'listed',
        validFrom: r.validFrom,
        validTo: r.validTo,
        release: r.release,
      };
    },
    zipLocality: (zipCode, date) => {
      const zip5 = /^(\d{5})(?:-?\d{4})?$/.exec(zipCode.trim())?.[1];
      if (zip5 === undefined) {
        return undefined;
      }
      const answer = zipInPeriod(zip5, date, () => {
        const r = zip.get({ zip: zip5, date }) as (Omit<ZipLocality, 'plus4'> & { plus4_flag: number }) | undefined;
        if (!r) {
          return null;
        }
        const { plus4_flag, ...rest } = r;
        return { ...rest, plus4: plus4_flag === 1 };
      });
      return answer ?? undefined;
    },
    carriersOfState: (state, date) => {
      const st = state.trim().toUpperCase();
      const answer = carriersInPeriod(st, date, () => {
        const rows = stateCarriers.all({ state: st, date }) as { carrier: string; release: string }[];
        const first = rows[0];
        return first === undefined ? null : { carriers: rows.map((r) => r.carrier), release: first.release };
      });
      return answer ?? undefined;
    },
  };
}
