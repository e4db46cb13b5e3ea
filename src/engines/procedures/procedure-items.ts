// Procedure code item data (operations.md "Procedure code item data"): HCPCS Level II records (and CPT records when a
// user-supplied descriptor file is loaded) filtered by code id, list, range and keywords, paged, each with every
// field the loaded tables hold on the target date:
//
//   filters ─► CPT page (code table) ┐  CPT codes start with a digit, HCPCS with a letter: one code order,
//           ─► HCPCS page (HCPCS file) ┘  CPT first, so the two pages join without a merge
//        ─► per record: OPPS Addendum B (SI, APC, payment) · NCCI add-on edits · MUE (3 settings) · DMEPOS jurisdiction
import type { Reference } from '../../reference/index.js';
import type { CodeVersion } from '../../reference/queries/codes.js';
import type { MueRow } from '../../reference/queries/edits.js';
import type { HcpcsDetail } from '../../reference/queries/procedures.js';
import type { ProcedureItem, ProcedureItemPage, ProcedureItemQuery } from '../../schemas/procedures.js';
import { codeFromId, codeIdOf, parseCode } from '../codes/index.js';

/** The parts of the Reference port procedure item data reads. */
export type ProceduresReference = Pick<Reference, 'codes' | 'procedures' | 'edits'>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The filters of a query in the form the reference lookups take them; `undefined` when no code can match. */
function filtersOf(query: ProcedureItemQuery):
  | {
      codes: readonly string[] | undefined;
      range: { first: string; last: string } | undefined;
      words: readonly string[] | undefined;
    }
  | undefined {
  let codes: string[] | undefined = query.codeList?.map((c) => parseCode(c).code);
  if (query.codeId !== undefined) {
    const decoded = codeFromId(query.codeId);
    if (!decoded || (decoded.system !== 'HCPCS' && decoded.system !== 'CPT')) {
      return undefined;
    }
    codes = codes ? codes.filter((c) => c === decoded.code) : [decoded.code];
  }
  if (codes?.length === 0) {
    return undefined;
  }
  const start = query.codeRange ? parseCode(query.codeRange.codeStart).code : undefined;
  const end = query.codeRange?.codeEnd ? parseCode(query.codeRange.codeEnd).code : start;
  const words = query.keyword?.trim().split(/\s+/).filter(Boolean);
  return {
    codes,
    range: start !== undefined && end !== undefined ? { first: start, last: end } : undefined,
    words: words && words.length > 0 ? words : undefined,
  };
}

/**
 * Records of the HCPCS (and CPT) codes matching a query, one page, with the count before paging.
 * @param ref - the Reference port
 * @param query - the parsed request (schemas/procedures.ts `ProcedureItemQuery`)
 * @throws RangeError for a targetDate that is not `YYYY-MM-DD`, a startRow below 1 or a limit outside 1-200
 */
export function procedureItems(ref: ProceduresReference, query: ProcedureItemQuery): ProcedureItemPage {
  // Step 1: check the query (the HTTP layer validated it; direct callers may not have).
  if (!ISO_DATE.test(query.targetDate)) {
    throw new RangeError(`Expected "targetDate" to be an ISO date YYYY-MM-DD, got ${JSON.stringify(query.targetDate)}`);
  }
  if (!Number.isInteger(query.startRow) || query.startRow < 1) {
    throw new RangeError(`Expected "startRow" to be an integer of at least 1, got ${query.startRow}`);
  }
  if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > 200) {
    throw new RangeError(`Expected "limit" to be an integer from 1 to 200, got ${query.limit}`);
  }
  const filters = filtersOf(query);
  if (!filters) {
    return { records: [], totalCount: 0 };
  }

  // Step 2: the page, CPT codes first (they sort before every HCPCS code).
  const date = query.targetDate;
  const offset = query.startRow - 1;
  const cptLoaded = ref.codes.releases('CPT').length > 0;
  const cpt = cptLoaded
    ? ref.codes.find('CPT', { ...filters, date, includeEnded: query.includeDeletedCodes, offset, limit: query.limit })
    : { total: 0, versions: [] as CodeVersion[] };
  const hcpcs = ref.procedures.hcpcsSearch({
    ...filters,
    date,
    includeTerminated: query.includeDeletedCodes,
    offset: Math.max(0, offset - cpt.total),
    limit: query.limit - cpt.versions.length,
  });

  // Step 3: each record with the tables in force on the date.
  const aocLoaded = ref.edits.releaseOn('ncci-aoc', date) !== undefined;
  const records = [
    ...cpt.versions.map((v) => recordOf(ref, date, aocLoaded, { cpt: v })),
    ...(query.limit - cpt.versions.length > 0 ? hcpcs.details : []).map((h) =>
      recordOf(ref, date, aocLoaded, { hcpcs: h }),
    ),
  ];
  return { records, totalCount: cpt.total + hcpcs.total };
}

/**
 * The record of one code on a date, deleted codes included (one-code form of {@link procedureItems}).
 * @returns `undefined` when neither the HCPCS file nor a CPT descriptor file has the code by then
 */
export function procedureItem(ref: ProceduresReference, code: string, targetDate: string): ProcedureItem | undefined {
  return procedureItems(ref, { codeList: [code], targetDate, includeDeletedCodes: true, startRow: 1, limit: 1 })
    .records[0];
}

const text = (value: string | null | undefined): string => value ?? '';
const money = (value: number | null | undefined): string =>
  value === null || value === undefined ? '' : value.toFixed(2);

function recordOf(
  ref: ProceduresReference,
  date: string,
  aocLoaded: boolean,
  source: { readonly hcpcs: HcpcsDetail } | { readonly cpt: CodeVersion },
): ProcedureItem {
  const h = 'hcpcs' in source ? source.hcpcs : undefined;
  const v = 'cpt' in source ? source.cpt : undefined;
  const code = h?.code ?? v?.code ?? '';
  const validTo = h?.validTo ?? v?.validTo ?? null;
  const opps = ref.procedures.opps(code, date);
  const mue = (setting: 'practitioner' | 'outpatient-hospital' | 'dme'): MueRow | undefined =>
    ref.edits.mue(code, date, setting);
  const practitioner = mue('practitioner');
  const hospital = mue('outpatient-hospital');
  const dme = mue('dme');
  const record: ProcedureItem = {
    code,
    codeId: codeIdOf(h ? 'HCPCS' : 'CPT', code),
    codeType: h ? 'HCPCS' : 'CPT',
    shortDescription: text(h?.shortDescription ?? v?.shortTitle),
    longDescription: text(h?.longDescription ?? v?.longTitle),
    addedDate: text(h ? h.addedDate : v?.validFrom),
    terminationDate: text(h ? h.terminationDate : v?.validTo),
    isDeleted: validTo !== null && validTo < date,
    actionCode: text(h?.actionCode),
    actionEffectiveDate: text(h?.actionEffectiveDate),
    // Unknown (empty), not N, when no add-on edit table covers the date.
    addOnCode: !aocLoaded ? '' : ref.edits.aocForAddOn(code, date).length > 0 ? 'Y' : 'N',
    apcCode: text(opps?.apc),
    adjustedApcPayment: money(opps?.paymentRate),
    statusIndicator: text(opps?.statusIndicator),
    ascApproved: h ? (h.ascGroup === 'YY' ? 'Y' : 'N') : '',
    ascMultiProc: '',
    coverage: text(h?.coverage),
    pricingIndicators: h?.pricingIndicators ?? [],
    multiplePricingIndicator: text(h?.multiplePricingIndicator),
    betos: text(h?.betos),
    typesOfService: h?.typesOfService ?? [],
    cimReferences: h?.cimReferences ?? [],
    mcmReferences: h?.mcmReferences ?? [],
    statute: text(h?.statute),
    labCertifications: h?.labCertifications ?? [],
    crossReferences: h?.crossReferences ?? [],
    ascGroup: text(h?.ascGroup),
    ascEffectiveDate: text(h?.ascEffectiveDate),
    mogGroup: text(h?.mogGroup),
    mogPolicyIndicator: text(h?.mogPolicyIndicator),
    mogEffectiveDate: text(h?.mogEffectiveDate),
    processingNote: text(h?.processingNote),
    processingNoteText: text(h?.processingNoteText),
    notOtherwiseClassified: h?.noc ?? false,
    dmeposJurisdiction: ref.procedures.dmeposJurisdiction(code, date)?.jurisdictions.join(',') ?? '',
    release: h?.source.release ?? v?.lastRelease ?? '',
  };
  // Optional numbers only when the tables have them (no `undefined` values on the wire).
  const numbers: [keyof ProcedureItem, number | null | undefined][] = [
    ['relativeWeight', opps?.relativeWeight],
    ['nationalCopay', opps?.nationalCopay],
    ['minimumCopay', opps?.minimumCopay],
    ['anesthesiaBaseUnits', h?.anesthesiaBaseUnits],
    ['muePractitioner', practitioner?.value],
    ['muePractitionerMai', practitioner?.mai],
    ['mueOutpatientHospital', hospital?.value],
    ['mueOutpatientHospitalMai', hospital?.mai],
    ['mueDme', dme?.value],
    ['mueDmeMai', dme?.mai],
  ];
  for (const [key, value] of numbers) {
    if (value !== null && value !== undefined) {
      (record as Record<string, unknown>)[key] = value;
    }
  }
  if (opps) {
    record.oppsRelease = opps.source.release;
    // The derived rows answer only where no official Addendum B covers the date; the record says so.
    if (opps.derived) {
      record.oppsDerived = true;
    }
  }
  return record;
}
