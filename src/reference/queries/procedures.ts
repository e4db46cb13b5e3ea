// Read side of the procedure tables: HCPCS Level II detail and modifiers (with the NOC list, processing notes and
// published corrections), OPPS Addendum B status indicator / APC / payment, and the DMEPOS fee schedule's
// jurisdiction and fees, and a filtered, paged scan of the HCPCS codes (procedure code item data). Every lookup takes
// a date of service; statements are prepared once per connection. A table a partial build (`--only`) left out
// answers "no data" (undefined, [] or an empty page), never a pass.
import type Database from 'better-sqlite3';
import type { HcpcsRecord } from '../../schemas/hcpcs.js';
import type { CodeRelease } from './codes.js';
import { changeDatesSearch, changesBy, perPeriod } from './periods.js';
import { tableNames } from './tables.js';

/** A published correction to a HCPCS release (`hcpcs-corrections`). */
export interface HcpcsCorrection {
  readonly code: string;
  /** The ACTION text as CMS wrote it. */
  readonly action: string;
  readonly kind: 'add' | 'discontinue' | 'restore' | 'change';
  /** Null when the sheet's date is not a date (the 2019 sheet has `01/0/12019` for Q5111). */
  readonly effectiveDate: string | null;
  readonly effectiveDateText: string | null;
  readonly shortDescription: string | null;
  readonly longDescription: string | null;
  readonly typesOfService: string[];
  readonly betos: string | null;
  readonly coverage: string | null;
  readonly pricingIndicators: string[];
  readonly crossReference: string | null;
  readonly ascGroup: string | null;
  readonly ascEffectiveDate: string | null;
  readonly comments: string | null;
  readonly release: string;
}

/** Where a row came from: the source file, ZIP member, release and line (sheet row for XLSX). */
export interface RowSource {
  readonly file: string;
  readonly member: string | null;
  readonly release: string;
  readonly line: number;
}

/** A HCPCS Level II code with every field of its record (HCPCS2019_recordlayout.txt), as the loader parsed it. */
export interface HcpcsDetail extends Omit<HcpcsRecord, 'recordId' | 'longDescription' | 'shortDescription'> {
  readonly longDescription: string | null;
  readonly shortDescription: string | null;
  /** Text of the processing note from the release's `proc_notes` file, when it has one. */
  readonly processingNoteText: string | null;
  /** Validity used for dates: added date to termination date, as corrected. */
  readonly validFrom: string;
  readonly validTo: string | null;
  /** True when the code is on the release's not-otherwise-classified list on the date. */
  readonly noc: boolean;
  /** Corrections CMS published to this code's release, oldest first. */
  readonly corrections: HcpcsCorrection[];
  readonly source: RowSource;
}

/** A HCPCS modifier (RIC 7 records). */
export interface HcpcsModifier {
  readonly modifier: string;
  readonly longDescription: string | null;
  readonly shortDescription: string | null;
  readonly cimReferences: string[];
  readonly mcmReferences: string[];
  readonly crossReferences: string[];
  readonly coverage: string | null;
  readonly processingNote: string | null;
  readonly processingNoteText: string | null;
  readonly addedDate: string | null;
  readonly actionEffectiveDate: string | null;
  readonly terminationDate: string | null;
  readonly actionCode: string | null;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly corrections: HcpcsCorrection[];
  readonly source: RowSource;
}

/** One OPPS Addendum B row: the quarter's status indicator, APC and payment for a code. */
export interface OppsEntry {
  readonly code: string;
  readonly shortDescriptor: string | null;
  readonly statusIndicator: string;
  readonly apc: string | null;
  readonly relativeWeight: number | null;
  readonly paymentRate: number | null;
  readonly nationalCopay: number | null;
  readonly minimumCopay: number | null;
  readonly adjustedCopay: number | null;
  readonly iraCoinsurancePct: number | null;
  /** Copayment capped at the inpatient deductible. */
  readonly copayCapped: boolean;
  readonly passThroughExpiring: boolean;
  readonly note: string | null;
  /** Marked `*` (changed) in the quarter's file. */
  readonly changed: boolean;
  /** True for the DERIVED April 2026 sample (no APC, weights or copayments); served only where no official row is. */
  readonly derived: boolean;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly source: RowSource;
}

/** Which contractor processes a DMEPOS item: D = DME MAC, L = local A/B MAC, J = joint (either). */
export interface DmeposJurisdiction {
  readonly code: string;
  /** The JURIS values of the code's rows (one in the January 2026 file for every code). */
  readonly jurisdictions: string[];
  /** Payment categories (CATG) of the code's rows. */
  readonly categories: string[];
  readonly release: string;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** One fee-schedule row (code and modifier pair); `amounts` holds the state's NR/R fees when a state was asked. */
export interface DmeposFee {
  readonly schedule: 'DMEPOS' | 'PEN';
  readonly code: string;
  readonly modifier: string | null;
  readonly modifier2: string | null;
  readonly jurisdiction: string | null;
  readonly category: string | null;
  readonly ceiling: number | null;
  readonly floor: number | null;
  readonly description: string | null;
  readonly amounts?:
    { readonly state: string; readonly nonRural: number | null; readonly rural: number | null } | undefined;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly source: RowSource;
}

/** A filter over the HCPCS Level II codes; the filters given AND together. */
export interface HcpcsSearch {
  /** Only these codes (upper-case). */
  readonly codes?: readonly string[] | undefined;
  /** Codes from `first` to `last`, both inclusive (upper-case). */
  readonly range?: { readonly first: string; readonly last: string } | undefined;
  /** Words that must all occur, case-insensitively, in the long or the short description. */
  readonly words?: readonly string[] | undefined;
  /**
   * As-of date: each code is answered by its record in force on the date, or, when it was terminated by then, by its
   * last record. Codes added after the date are left out.
   */
  readonly date: string;
  /** Also answer codes terminated before `date`. */
  readonly includeTerminated: boolean;
  /** Codes to skip, in code order (0-based). */
  readonly offset: number;
  /** At most this many codes. */
  readonly limit: number;
}

/** One page of a HCPCS scan. */
export interface HcpcsSearchPage {
  /** Codes matching the filter, before paging. */
  readonly total: number;
  readonly details: HcpcsDetail[];
}

/** Lookups over the HCPCS, OPPS Addendum B and DMEPOS tables; `date` is an ISO date of service. */
export interface ProcedureQueries {
  /** HCPCS Level II detail of `code` (upper-case) in force on `date`. */
  hcpcs(code: string, date: string): HcpcsDetail | undefined;
  /** A HCPCS modifier in force on `date`. */
  hcpcsModifier(modifier: string, date: string): HcpcsModifier | undefined;
  /** True when `code` is on the not-otherwise-classified list on `date`. */
  isNoc(code: string, date: string): boolean;
  /**
   * OPPS Addendum B row for `code` on `date`: the newest official quarter in force on the date; the DERIVED rows only
   * when no official row is.
   */
  opps(code: string, date: string): OppsEntry | undefined;
  /** Batch form of `opps`: an entry per code that has a row on `date` (each code searched once per period of the table). */
  oppsMany(codes: readonly string[], date: string): Map<string, OppsEntry>;
  /**
   * Whether a loaded Addendum B (official or derived) is in force on `date`: when none is, a code's absence from the
   * addendum proves nothing. `loaded` lists the loaded addenda, oldest first (each answers for its own quarter).
   */
  oppsCovers(date: string): {
    readonly covered: boolean;
    /** Whether only DERIVED addenda are in force on `date`: then a code's absence from them is no proof either. */
    readonly derivedOnly: boolean;
    readonly loaded: readonly (CodeRelease & { readonly derived: boolean })[];
  };
  /** The loaded addenda (official or derived) that list `code`, oldest first, each with the quarter it answers for. */
  oppsListings(code: string): CodeRelease[];
  /** HCPCS Level II codes matching a filter, in code order, one page at a time. */
  hcpcsSearch(search: HcpcsSearch): HcpcsSearchPage;
  /**
   * The cross-reference codes of each of `codes`, from the record `hcpcsSearch` would answer with terminated codes
   * included (in force on `date`, else the last one before it); an entry per code that has such a record.
   */
  hcpcsCrossReferences(codes: readonly string[], date: string): Map<string, string[]>;
  /** DMEPOS jurisdiction of `code` from the newest fee schedule in force on `date`. */
  dmeposJurisdiction(code: string, date: string): DmeposJurisdiction | undefined;
  /** DMEPOS and PEN fee rows of `code` on `date`, with the state's amounts when `state` (e.g. `AL`) is given. */
  dmeposFees(code: string, date: string, state?: string): DmeposFee[];
}

const list = (value: string | null): string[] => (value ? (JSON.parse(value) as string[]) : []);

interface SourceCols {
  file: string;
  member: string | null;
  release: string;
  line: number;
}
const sourceOf = (r: SourceCols): RowSource => ({ file: r.file, member: r.member, release: r.release, line: r.line });

interface CorrectionRow {
  code: string;
  action: string;
  kind: HcpcsCorrection['kind'];
  effective_date: string | null;
  effective_date_text: string | null;
  short_desc: string | null;
  long_desc: string | null;
  type_of_service: string;
  betos: string | null;
  coverage_code: string | null;
  pricing_indicators: string;
  xref_code: string | null;
  asc_group: string | null;
  asc_effective_date: string | null;
  comments: string | null;
  release: string;
}

const toCorrection = (r: CorrectionRow): HcpcsCorrection => ({
  code: r.code,
  action: r.action,
  kind: r.kind,
  effectiveDate: r.effective_date,
  effectiveDateText: r.effective_date_text,
  shortDescription: r.short_desc,
  longDescription: r.long_desc,
  typesOfService: list(r.type_of_service),
  betos: r.betos,
  coverage: r.coverage_code,
  pricingIndicators: list(r.pricing_indicators),
  crossReference: r.xref_code,
  ascGroup: r.asc_group,
  ascEffectiveDate: r.asc_effective_date,
  comments: r.comments,
  release: r.release,
});

interface CodeRow extends SourceCols {
  code: string;
  seq: number;
  long_desc: string | null;
  short_desc: string | null;
  pricing_indicators: string;
  multiple_pricing_indicator: string | null;
  cim_refs: string;
  mcm_refs: string;
  statute: string | null;
  lab_cert_codes: string;
  xref_codes: string;
  coverage_code: string | null;
  asc_group: string | null;
  asc_effective_date: string | null;
  mog_group: string | null;
  mog_policy_indicator: string | null;
  mog_effective_date: string | null;
  processing_note: string | null;
  betos: string | null;
  type_of_service: string;
  anesthesia_base_units: number | null;
  added_date: string | null;
  action_effective_date: string | null;
  termination_date: string | null;
  action_code: string | null;
  valid_from: string;
  valid_to: string | null;
  release_from: string;
}

interface ModifierRow extends SourceCols {
  modifier: string;
  long_desc: string | null;
  short_desc: string | null;
  cim_refs: string;
  mcm_refs: string;
  xref_codes: string;
  coverage_code: string | null;
  processing_note: string | null;
  added_date: string | null;
  action_effective_date: string | null;
  termination_date: string | null;
  action_code: string | null;
  valid_from: string;
  valid_to: string | null;
  release_from: string;
}

interface OppsRow extends SourceCols {
  hcpcs: string;
  short_desc: string | null;
  status_indicator: string;
  apc: string | null;
  relative_weight: number | null;
  payment_rate: number | null;
  national_copay: number | null;
  minimum_copay: number | null;
  adjusted_copay: number | null;
  ira_coinsurance_pct: number | null;
  copay_capped: number;
  pass_through_expiring: number;
  note: string | null;
  changed: number;
  derived: number;
  valid_from: string;
  valid_to: string | null;
}

interface FeeRow extends SourceCols {
  schedule: 'DMEPOS' | 'PEN';
  hcpcs: string;
  mod: string;
  mod2: string;
  jurisdiction: string | null;
  category: string | null;
  ceiling: number | null;
  floor: number | null;
  description: string | null;
  valid_from: string;
  valid_to: string | null;
  nr: number | null;
  r: number | null;
  state: string | null;
}

/**
 * Codes searched in Addendum B in one period before the period's rows are read whole (about 20,000 rows: ~0.1 s,
 * against ~0.3 s of searches per thread for the ~13,000 procedure codes of a million bench lines).
 */
const OPPS_SEARCHES_BEFORE_WHOLE = 2000;

const inForce = (alias: string): string =>
  `${alias}.valid_from <= @date AND (${alias}.valid_to IS NULL OR ${alias}.valid_to >= @date)`;
/** Among the rows valid on the date, prefer the release in force on it (newest first), else the earliest later one. */
const releaseOrder =
  'ORDER BY (s.valid_from <= @date) DESC, CASE WHEN s.valid_from <= @date THEN s.valid_from END DESC, s.valid_from, s.id DESC';
const sourceCols = 's.file, s.member, s.release, s.valid_from AS release_from';

/** Prepares the procedure lookups on a (read-only) reference database. */
export function createProcedureQueries(db: Database.Database): ProcedureQueries {
  const tables = tableNames(db);
  const prepare = (table: string, sql: string): Database.Statement | undefined =>
    tables.has(table) ? db.prepare(sql) : undefined;

  const code = prepare(
    'hcpcs_code',
    `SELECT h.*, ${sourceCols} FROM hcpcs_code h JOIN source s ON s.id = h.source_id
     WHERE h.code = @code AND ${inForce('h')} ${releaseOrder} LIMIT 1`,
  );
  const modifier = prepare(
    'hcpcs_modifier',
    `SELECT m.*, ${sourceCols} FROM hcpcs_modifier m JOIN source s ON s.id = m.source_id
     WHERE m.modifier = @code AND ${inForce('m')} ${releaseOrder} LIMIT 1`,
  );
  const note = prepare(
    'hcpcs_processing_note',
    'SELECT text FROM hcpcs_processing_note WHERE note = @note ORDER BY (valid_from = @release) DESC, valid_from DESC LIMIT 1',
  );
  const corrections = prepare(
    'hcpcs_correction',
    `SELECT c.*, s.release FROM hcpcs_correction c JOIN source s ON s.id = c.source_id
     WHERE c.code = @code AND s.valid_from = @release ORDER BY c.valid_from, s.id, c.line`,
  );
  const noc = prepare('hcpcs_noc', `SELECT 1 FROM hcpcs_noc n WHERE n.code = @code AND ${inForce('n')} LIMIT 1`);
  const opps = prepare(
    'opps_addendum_b',
    `SELECT o.*, s.file, s.member, s.release FROM opps_addendum_b o JOIN source s ON s.id = o.source_id
     WHERE o.hcpcs = @code AND o.derived = @derived AND ${inForce('o')} ORDER BY o.valid_from DESC, o.source_id DESC LIMIT 1`,
  );
  // Each code's record in force on the date (as `code` picks it), else its last record ended before the date; codes
  // added after the date never qualify. `words` are lower-case; a word missing from both descriptions drops the code.
  // Two forms: over the whole table, and (a code list given) from the list's codes through the code index, which
  // reads a few rows instead of scanning every record twice (count and page).
  const searchRows = (byCodes: boolean): string => `WITH picked AS (
      SELECT h.*, ${sourceCols}, row_number() OVER (PARTITION BY h.code ORDER BY
          (h.valid_to IS NULL OR h.valid_to >= @date) DESC, (s.valid_from <= @date) DESC,
          CASE WHEN s.valid_from <= @date THEN s.valid_from END DESC, s.valid_from, h.valid_to DESC, s.id DESC) AS pick
      FROM ${byCodes ? '(SELECT DISTINCT value FROM json_each(@codes)) j CROSS JOIN hcpcs_code h' : 'hcpcs_code h'}
        JOIN source s ON s.id = h.source_id
      WHERE h.valid_from <= @date AND (@terminated = 1 OR h.valid_to IS NULL OR h.valid_to >= @date)
        AND ${byCodes ? 'h.code = j.value' : '@codes IS NULL'}
        AND (@first IS NULL OR (h.code >= @first AND h.code <= @last))
        AND (@words IS NULL OR NOT EXISTS (SELECT 1 FROM json_each(@words) w
          WHERE instr(lower(coalesce(h.long_desc, '') || ' ' || coalesce(h.short_desc, '')), w.value) = 0)))`;
  const searchStatements = (byCodes: boolean): { page: Database.Statement; count: Database.Statement } | undefined => {
    const page = prepare(
      'hcpcs_code',
      `${searchRows(byCodes)} SELECT * FROM picked WHERE pick = 1 ORDER BY code LIMIT @limit OFFSET @offset`,
    );
    const count = prepare('hcpcs_code', `${searchRows(byCodes)} SELECT count(*) AS n FROM picked WHERE pick = 1`);
    return page && count ? { page, count } : undefined;
  };
  const search = { all: searchStatements(false), byCodes: searchStatements(true) };
  const crossReferences = prepare(
    'hcpcs_code',
    `${searchRows(true)} SELECT code, xref_codes FROM picked WHERE pick = 1 ORDER BY code`,
  );
  const fees = prepare(
    'dmepos_fee',
    `SELECT f.*, s.file, s.member, s.release, st.state, st.nr, st.r
     FROM dmepos_fee f JOIN source s ON s.id = f.source_id
     LEFT JOIN dmepos_fee_state st ON st.hcpcs = f.hcpcs AND st.mod = f.mod AND st.mod2 = f.mod2 AND st.source_id = f.source_id AND st.state = @state
     WHERE f.hcpcs = @code AND ${inForce('f')}
       AND f.valid_from = (SELECT max(g.valid_from) FROM dmepos_fee g WHERE g.hcpcs = f.hcpcs AND g.schedule = f.schedule AND ${inForce('g')})
     ORDER BY f.schedule, f.mod, f.mod2`,
  );

  const noteText = (n: string | null, release: string): string | null =>
    n && note ? ((note.get({ note: n, release }) as { text: string } | undefined)?.text ?? null) : null;
  const correctionsOf = (c: string, release: string): HcpcsCorrection[] =>
    corrections ? (corrections.all({ code: c, release }) as CorrectionRow[]).map(toCorrection) : [];

  const feesOf = (c: string, date: string, state: string | undefined): DmeposFee[] =>
    fees
      ? (fees.all({ code: c, date, state: state ?? null }) as FeeRow[]).map((r) => ({
          schedule: r.schedule,
          code: r.hcpcs,
          modifier: r.mod || null,
          modifier2: r.mod2 || null,
          jurisdiction: r.jurisdiction,
          category: r.category,
          ceiling: r.ceiling,
          floor: r.floor,
          description: r.description,
          amounts: state && r.state ? { state: r.state, nonRural: r.nr, rural: r.r } : undefined,
          validFrom: r.valid_from,
          validTo: r.valid_to,
          source: sourceOf(r),
        }))
      : [];

  const oppsOf = (r: OppsRow | undefined): OppsEntry | undefined =>
    r && {
      code: r.hcpcs,
      shortDescriptor: r.short_desc,
      statusIndicator: r.status_indicator,
      apc: r.apc,
      relativeWeight: r.relative_weight,
      paymentRate: r.payment_rate,
      nationalCopay: r.national_copay,
      minimumCopay: r.minimum_copay,
      adjustedCopay: r.adjusted_copay,
      iraCoinsurancePct: r.ira_coinsurance_pct,
      copayCapped: r.copay_capped === 1,
      passThroughExpiring: r.pass_through_expiring === 1,
      note: r.note,
      changed: r.changed === 1,
      derived: r.derived === 1,
      validFrom: r.valid_from,
      validTo: r.valid_to,
      source: sourceOf(r),
    };
  /** The official row of a code on the date, else the derived one (`opps`). */
  const oppsOn = (c: string, date: string): OppsEntry | undefined =>
    oppsOf(
      (opps?.get({ code: c, date, derived: 0 }) ?? opps?.get({ code: c, date, derived: 1 })) as OppsRow | undefined,
    );
  // Addendum B rows change quarterly at most: a code's answer is kept per period between the table's change dates
  // (periods.ts), so a night's claims over weeks of dates of service search each code once.
  const oppsChanges = changesBy(
    changeDatesSearch(db, 'opps_addendum_b', '1'),
    false,
  );
  // Every code's row in force, as oppsOn picks it: the official row (derived 0) before the derived one, each the
  // newest (valid_from, then source). Read once a period has been searched OPPS_SEARCHES_BEFORE_WHOLE times.
  const oppsAll = prepare(
    'opps_addendum_b',
    `SELECT o.*, s.file, s.member, s.release FROM opps_addendum_b o JOIN source s ON s.id = o.source_id
     WHERE ${inForce('o')} ORDER BY o.hcpcs, o.derived, o.valid_from DESC, o.source_id DESC`,
  );
  const oppsInForce = (date: string): Map<string, OppsEntry | null> => {
    const all = new Map<string, OppsEntry | null>();
    for (const r of (oppsAll?.all({ date }) ?? []) as OppsRow[]) {
      if (!all.has(r.hcpcs)) {
        all.set(r.hcpcs, oppsOf(r) ?? null);
      }
    }
    return all;
  };
  const oppsInPeriod = perPeriod<OppsEntry | null>(() => oppsChanges(''), undefined, {
    after: OPPS_SEARCHES_BEFORE_WHOLE,
    load: oppsInForce,
    absent: null,
  });
  const oppsListingsOf =
    opps === undefined
      ? undefined
      : db.prepare(
          `SELECT s.release, s.valid_from AS validFrom, s.valid_to AS validTo FROM opps_addendum_b o
           JOIN source s ON s.id = o.source_id WHERE o.hcpcs = ? ORDER BY s.valid_from`,
        );
  // The loaded addenda's intervals, oldest first (a handful of rows, read once).
  const oppsIntervals = (
    opps === undefined
      ? []
      : db
          .prepare(
            `SELECT release, valid_from AS validFrom, valid_to AS validTo,
               (SELECT max(derived) FROM opps_addendum_b o WHERE o.source_id = s.id) AS derived
             FROM source s WHERE id IN (SELECT DISTINCT source_id FROM opps_addendum_b) ORDER BY valid_from`,
          )
          .all() as (CodeRelease & { readonly derived: number })[]
  ).map(({ release, validFrom, validTo, derived }) => ({ release, validFrom, validTo, derived: derived === 1 }));

  const detailOf = (r: CodeRow, date: string): HcpcsDetail => ({
    code: r.code,
    sequence: r.seq,
    longDescription: r.long_desc,
    shortDescription: r.short_desc,
    pricingIndicators: list(r.pricing_indicators),
    multiplePricingIndicator: r.multiple_pricing_indicator,
    cimReferences: list(r.cim_refs),
    mcmReferences: list(r.mcm_refs),
    statute: r.statute,
    labCertifications: list(r.lab_cert_codes),
    crossReferences: list(r.xref_codes),
    coverage: r.coverage_code,
    ascGroup: r.asc_group,
    ascEffectiveDate: r.asc_effective_date,
    mogGroup: r.mog_group,
    mogPolicyIndicator: r.mog_policy_indicator,
    mogEffectiveDate: r.mog_effective_date,
    processingNote: r.processing_note,
    processingNoteText: noteText(r.processing_note, r.release_from),
    betos: r.betos,
    typesOfService: list(r.type_of_service),
    anesthesiaBaseUnits: r.anesthesia_base_units,
    addedDate: r.added_date,
    actionEffectiveDate: r.action_effective_date,
    terminationDate: r.termination_date,
    actionCode: r.action_code,
    validFrom: r.valid_from,
    validTo: r.valid_to,
    noc: noc?.get({ code: r.code, date }) !== undefined,
    corrections: correctionsOf(r.code, r.release_from),
    source: sourceOf(r),
  });

  return {
    hcpcs(c, date) {
      const r = code?.get({ code: c, date }) as CodeRow | undefined;
      return r && detailOf(r, date);
    },
    hcpcsModifier(m, date) {
      const r = modifier?.get({ code: m, date }) as ModifierRow | undefined;
      if (!r) {
        return undefined;
      }
      return {
        modifier: r.modifier,
        longDescription: r.long_desc,
        shortDescription: r.short_desc,
        cimReferences: list(r.cim_refs),
        mcmReferences: list(r.mcm_refs),
        crossReferences: list(r.xref_codes),
        coverage: r.coverage_code,
        processingNote: r.processing_note,
        processingNoteText: noteText(r.processing_note, r.release_from),
        addedDate: r.added_date,
        actionEffectiveDate: r.action_effective_date,
        terminationDate: r.termination_date,
        actionCode: r.action_code,
        validFrom: r.valid_from,
        validTo: r.valid_to,
        corrections: correctionsOf(m, r.release_from),
        source: sourceOf(r),
      };
    },
    isNoc: (c, date) => noc?.get({ code: c, date }) !== undefined,
    opps: oppsOn,
    oppsMany(codes, date) {
      const found = new Map<string, OppsEntry>();
      for (const c of codes) {
        if (!found.has(c)) {
          const entry = oppsInPeriod(c, date, () => oppsOn(c, date) ?? null);
          if (entry !== null) {
            found.set(c, entry);
          }
        }
      }
      return found;
    },
    oppsCovers: (date) => {
      const inForce = oppsIntervals.filter((r) => r.validFrom <= date && (r.validTo === null || r.validTo >= date));
      return {
        covered: inForce.length > 0,
        derivedOnly: inForce.length > 0 && inForce.every((r) => r.derived),
        loaded: oppsIntervals,
      };
    },
    oppsListings: (c) => (oppsListingsOf?.all(c) ?? []) as CodeRelease[],
    hcpcsSearch(filter) {
      const statements = filter.codes ? search.byCodes : search.all;
      if (!statements) {
        return { total: 0, details: [] };
      }
      const params = {
        date: filter.date,
        terminated: filter.includeTerminated ? 1 : 0,
        codes: filter.codes ? JSON.stringify(filter.codes) : null,
        first: filter.range?.first ?? null,
        last: filter.range?.last ?? null,
        words:
          filter.words && filter.words.length > 0 ? JSON.stringify(filter.words.map((w) => w.toLowerCase())) : null,
      };
      const total = (statements.count.get(params) as { n: number }).n;
      const rows = statements.page.all(
        Object.assign(params, { limit: filter.limit, offset: filter.offset }),
      ) as CodeRow[];
      return { total, details: rows.map((r) => detailOf(r, filter.date)) };
    },
    hcpcsCrossReferences(codes, date) {
      const rows = (crossReferences?.all({
        date,
        terminated: 1,
        codes: JSON.stringify(codes),
        first: null,
        last: null,
        words: null,
      }) ?? []) as { code: string; xref_codes: string }[];
      return new Map(rows.map((r) => [r.code, list(r.xref_codes)]));
    },
    dmeposJurisdiction(c, date) {
      const rows = feesOf(c, date, undefined).filter((f) => f.schedule === 'DMEPOS');
      const first = rows[0];
      if (!first) {
        return undefined;
      }
      const distinct = (values: (string | null)[]): string[] =>
        [...new Set(values.filter((v): v is string => v !== null))].sort();
      return {
        code: c,
        jurisdictions: distinct(rows.map((r) => r.jurisdiction)),
        categories: distinct(rows.map((r) => r.category)),
        release: first.source.release,
        validFrom: first.validFrom,
        validTo: first.validTo,
      };
    },
    dmeposFees: (c, date, state) => feesOf(c, date, state),
  };
}
