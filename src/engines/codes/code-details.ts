// CodeDetail for a batch of code strings on one date (interface-spec.md "CodeDetail"; operations.md "Code sets and
// dates, everywhere"). One pass per batch, batch queries throughout:
//
//   inputs ─► parse + shape candidates ─► lookUp (per system: on the date, then every release)
//        ─► settle the system (named, detected, or ambiguous) ─► classify:
//             valid │ header │ deleted │ not yet │ ICD-9 ended │ ICD-10 not yet │ no data │ not found │ malformed
//        ─► follow-ups, batched: header children (+ 7th characters), placeholder / bad 7th character,
//           ICD-9 headers, conversion-table replacements, MCE limits, OPPS status indicators
//        ─► one CodeDetail per input, in input order
//
// isValid = in force on the date AND billable. Everything else is a reason (reasonCode, message) returned as data.
import type { CodeVersion } from '../../reference/queries/codes.js';
import { releaseGap } from '../../schemas/validity.js';
import type { OppsEntry } from '../../reference/queries/procedures.js';
import {
  alternateCode,
  ICD10_START,
  codeTypeOf,
  displayCode,
  fitsShape,
  parseCode,
  parseCodeSet,
  shapeSystems,
  systemLabel,
  type CodeSystem,
  type ParsedCode,
} from '../../schemas/code-systems.js';
import type { CodeCandidate, CodeDetail, CodeReasonCode } from '../../schemas/codes.js';
import { AnswerMemory } from '../answer-memory.js';
import { codeIdOf } from './code-id.js';
import { lookUp, onDateOf, releaseOn, settleSystems, type CodesReference, type SystemLookup } from './lookup.js';
import { DEFAULT_MAX_AGE, DEFAULT_MIN_AGE, mceLimitsOn, type MceLimits } from './mce-limits.js';
import { CODE_NOTES, CODE_REASONS, listOf, reasonMessage } from './messages.js';
import {
  describeValues,
  needsSeventh,
  sevenChrDefOf,
  sevenChrIndexOn,
  sevenChrStem,
  withPlaceholder,
} from './seventh-character.js';

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
/** ICD-10 took effect for services on this date; ICD-9-CM ended the day before (operations.md). */
/** Billable children a header's message lists (operations.md: up to 10). */
const HEADER_CHILDREN = 10;

/**
 * A CodeDetail being built: every field present, in schema order, undefined until set. Every draft has the same
 * members in the same order, so V8 gives them one hidden class and the answer is the draft itself, frozen (building
 * a copy with only the defined fields cost ~2 us a code). The wire writers omit undefined members, as JSON does.
 */
type Draft = { -readonly [K in keyof CodeDetail]-?: CodeDetail[K] | undefined };

/** A draft with the fields every answer has; the rest undefined. */
function newDraft(codeId: number, code: string, codeAlt: string): Draft {
  return {
    codeId,
    code,
    codeAlt,
    shortDescription: undefined,
    longDescription: undefined,
    codeType: undefined,
    isValid: false,
    invalidReason: undefined,
    priorAuthReq: undefined,
    unacceptablePrincipalDx: false,
    statusIndicator: undefined,
    minAge: DEFAULT_MIN_AGE,
    maxAge: DEFAULT_MAX_AGE,
    reqGender: undefined,
    reasonCode: undefined,
    message: undefined,
    suggestions: undefined,
    candidates: undefined,
    deletedIn: undefined,
    release: undefined,
    noData: undefined,
    derived: undefined,
    notes: undefined,
  };
}

/** The finished answer: the draft and its lists, frozen (answers are shared through the cache). */
function finish(d: Draft): CodeDetail {
  if (d.suggestions) {
    Object.freeze(d.suggestions);
  }
  if (d.candidates) {
    Object.freeze(d.candidates);
  }
  if (d.notes) {
    Object.freeze(d.notes);
  }
  return Object.freeze(d) as CodeDetail;
}

/**
 * Answers already given, per Reference connection: CodeDetail is a pure function of (date, code set, string), and
 * claim files repeat codes, so a batch only looks up strings not seen on its date. The same map dedupes a batch's own
 * repeats: an entry is remembered when first read and answered when the batch finishes (one map probe per input; with
 * a second map for the batch, map probes on ~100,000 fresh strings were a fifth of a cold batch). Bounded: emptied
 * when full. Call key `date|codeSet`.
 */
const MAX_REMEMBERED = 100_000;
const remembered = new WeakMap<object, AnswerMemory<Entry>>();

/**
 * One distinct input string: read in step 1 (the parsed code's fields, copied so a remembered entry is one object),
 * answered in step 5.
 */
interface Entry extends ParsedCode {
  readonly candidates: readonly CodeSystem[];
  detail: Draft | undefined;
  answer: CodeDetail | undefined;
}

/** A code whose system is settled, waiting for batched follow-ups. */
interface Settled {
  readonly entry: Entry;
  readonly system: CodeSystem;
  readonly code: string;
  readonly lookup: SystemLookup;
}

const isIcd9 = (s: CodeSystem): boolean => s === 'ICD9CM_DX' || s === 'ICD9CM_PROC';
const isIcd10 = (s: CodeSystem): boolean => s === 'ICD10CM' || s === 'ICD10PCS';

/** The fields every answer about a settled code starts from (`shown`: the code as displayCode writes it). */
function baseOf(system: CodeSystem, code: string, shown: string, version: CodeVersion | undefined): Draft {
  const d = newDraft(codeIdOf(system, code), shown, alternateCode(system, code));
  d.shortDescription = version?.shortTitle ?? undefined;
  d.longDescription = version?.longTitle ?? undefined;
  d.codeType = codeTypeOf(system);
  return d;
}

/** The fields of an answer whose code set is not settled (malformed or ambiguous strings). */
function unsettled(code: string, codeAlt: string): Draft {
  return newDraft(0, code, codeAlt);
}

/** Marks a draft invalid with a reason and its message. */
function fail(d: Draft, reason: CodeReasonCode, message: string): Draft {
  d.isValid = false;
  d.invalidReason = CODE_REASONS[reason].invalidReason;
  d.reasonCode = reason;
  d.message = message;
  return d;
}

function addNote(d: Draft, note: string): void {
  (d.notes ??= []).push(note);
}

/** Says that part of the answer rests on a derived (non-official) file, and which part (`note`). */
function markDerived(d: Draft, note: string): void {
  d.derived = true;
  addNote(d, note);
}

function applyLimits(d: Draft, limits: MceLimits): void {
  d.unacceptablePrincipalDx = limits.unacceptablePrincipalDx;
  d.minAge = limits.minAge;
  d.maxAge = limits.maxAge;
  d.reqGender = limits.reqGender;
  for (const note of limits.notes) {
    addNote(d, note);
  }
}

/** `FY2024–FY2026`, `v32`, `none`. */
function releaseSpan(lookup: SystemLookup): string {
  const first = lookup.releases[0]?.release;
  const last = lookup.releases.at(-1)?.release;
  return !first ? 'none loaded' : first === last ? first : `${first}–${last ?? ''}`;
}

/** A call's date and code set, checked and read. */
interface Call {
  readonly date: string;
  readonly codeSet: string | undefined;
  readonly named: readonly CodeSystem[] | undefined;
  /** The memory's call key, `date|codeSet`: one string while calls repeat (a map probe hashes a new one anew). */
  readonly callKey: string;
}
/**
 * The last call read per code set (`''` when none is named): the claim engine calls claim after claim with one date
 * and alternates the diagnosis and procedure code sets, so one remembered call per set is reused.
 */
const lastCalls = new Map<string, Call>();
/** Code set strings as callers spell them, remembered at most (a caller may send a new spelling each time). */
const MAX_LAST_CALLS = 64;

/**
 * Checks and reads a call's date and code set; the last call's with that code set are reused while the date repeats.
 * @throws RangeError as codeDetails
 */
function readCall(date: string, codeSet: string | undefined): Call {
  const last = lastCalls.get(codeSet ?? '');
  if (last !== undefined && last.date === date && last.codeSet === codeSet) {
    return last;
  }
  if (!ISO_DATE.test(date)) {
    throw new RangeError(`Expected "date" to be an ISO date YYYY-MM-DD, got ${JSON.stringify(date)}`);
  }
  const named = codeSet === undefined ? undefined : parseCodeSet(codeSet);
  if (codeSet !== undefined && !named) {
    throw new RangeError(
      `Expected "codeSet" to be ICD-10 CM, ICD-10 PCS, ICD-9 CM, CPT or HCPCS, got ${JSON.stringify(codeSet)}`,
    );
  }
  const call = { date, codeSet, named, callKey: `${date}|${codeSet ?? ''}` };
  if (lastCalls.size >= MAX_LAST_CALLS) {
    lastCalls.clear();
  }
  lastCalls.set(codeSet ?? '', call);
  return call;
}

/**
 * CodeDetail of each code string on a date, one per input in input order.
 * @param ref - the Reference port
 * @param codes - code strings, dotted or not, any case (duplicates are answered once and repeated)
 * @param date - date of service, `YYYY-MM-DD`
 * @param codeSet - the code set the codes belong to (`ICD-10 CM`, `icd10pcs`, `ICD-9 CM`, `CPT`, `HCPCS`); when
 *   absent each code's system is detected, and a code that exists in several is answered as ambiguous
 * @returns one frozen CodeDetail per input (answers are remembered per connection and date, and shared)
 * @throws RangeError when `date` is not `YYYY-MM-DD` or `codeSet` names no code set
 */
export function codeDetails(
  ref: CodesReference,
  codes: readonly string[],
  date: string,
  codeSet?: string,
): CodeDetail[] {
  const { named, callKey } = readCall(date, codeSet);

  // Step 1: answers already given; read each other distinct input and list the systems its shape fits (among those
  // named, when named).
  let memory = remembered.get(ref.codes);
  if (!memory) {
    memory = new AnswerMemory(MAX_REMEMBERED);
    remembered.set(ref.codes, memory);
  }
  const cache = memory.answersFor(callKey);
  // Answers already given (most, claim after claim) are returned as they are found; the first input not yet answered
  // starts the batch of new ones.
  const details: CodeDetail[] = new Array<CodeDetail>(codes.length);
  let i = 0;
  for (; i < codes.length; i++) {
    const entry = cache.get(codes[i] as string);
    if (entry === undefined) {
      break;
    }
    details[i] = entry.answer as CodeDetail;
  }
  if (i === codes.length) {
    return details;
  }
  // From the first input not answered on: its entry, answered or new (the ones before it are answered in `details`).
  const answers: Entry[] = new Array<Entry>(codes.length);
  const entries: Entry[] = [];
  // The systems the new entries may belong to, and the codes that may be CPT or HCPCS (the addendum lookup reads a list).
  const systems = new Set<CodeSystem>();
  const addendumCodes: string[] = [];
  const firstNew = i;
  for (; i < codes.length; i++) {
    const input = codes[i] as string;
    let entry = cache.get(input);
    if (!entry) {
      const parsed = parseCode(input);
      const candidates = named ? namedCandidates(ref, parsed, named, date) : shapeSystems(parsed);
      entry = {
        input,
        code: parsed.code,
        dot: parsed.dot,
        clean: parsed.clean,
        candidates,
        detail: undefined,
        answer: undefined,
      };
      // When the memory is full it is emptied first (this batch's entries stay in `entries` and `answers`).
      memory.add(cache, input, entry);
      entries.push(entry);
      for (const system of candidates) {
        systems.add(system);
        if (system === 'CPT' || system === 'HCPCS') {
          addendumCodes.push(parsed.code);
        }
      }
    }
    answers[i] = entry;
  }
  try {
    answerEntries(ref, entries, date, named, systems, addendumCodes);
  } finally {
    // A batch that failed half-way leaves no unanswered entry behind for later calls to trust.
    for (const entry of entries) {
      if (entry.answer === undefined && cache.get(entry.input) === entry) {
        memory.forget(cache, entry.input);
      }
    }
  }
  for (let k = firstNew; k < codes.length; k++) {
    details[k] = (answers[k] as Entry).answer as CodeDetail;
  }
  return details;
}

/** The same kind of code (diagnosis, procedure) in the other ICD revision. */
const OTHER_REVISION: Partial<Record<CodeSystem, CodeSystem>> = {
  ICD10CM: 'ICD9CM_DX',
  ICD10PCS: 'ICD9CM_PROC',
  ICD9CM_DX: 'ICD10CM',
  ICD9CM_PROC: 'ICD10PCS',
};

/**
 * The code sets named that a string has the shape of. When it fits none, and the sets named are of the ICD revision
 * in force on the date, a code of the other revision that a loaded release lists is read in that revision: an
 * ICD-9-CM code on an ICD-10 claim from 2015-10-01 is answered as ICD-9-CM having ended (CODE_ICD9_ENDED), an ICD-10
 * code on an ICD-9 claim before it as not yet valid (CODE_ICD10_NOT_YET), where "not a well-formed ICD-10-CM code"
 * told the biller nothing.
 */
function namedCandidates(ref: CodesReference, parsed: ParsedCode, named: readonly CodeSystem[], date: string): CodeSystem[] {
  const fit = named.filter((s) => fitsShape(s, parsed));
  if (fit.length > 0 || named.length === 0 || !named.every(date >= ICD10_START ? isIcd10 : isIcd9)) {
    return fit;
  }
  const other = named
    .map((s) => OTHER_REVISION[s])
    .find((s) => s !== undefined && fitsShape(s, parsed) && ref.codes.history(s, parsed.code).length > 0);
  return other === undefined ? fit : [other];
}

/** Steps 2 to 5 for the entries a batch read anew: looks them up, classifies them and sets each one's answer. */
function answerEntries(
  ref: CodesReference,
  entries: readonly Entry[],
  date: string,
  named: readonly CodeSystem[] | undefined,
  systems: ReadonlySet<CodeSystem>,
  addendumCodes: readonly string[],
): void {
  // Step 2: one batch lookup per system.
  const lookups = lookUp(ref, date, systems, addendumCodes);
  const mce = mceLimitsOn(ref.policies, date);

  // Step 3: settle each input's system and classify it; collect what needs a second batch.
  const headers: Settled[] = [];
  const notFoundCm: Settled[] = [];
  const notFoundIcd9: Settled[] = [];
  const priced: Settled[] = [];
  const gone: Gone[] = [];
  const later: FollowUps = { headers, deleted: gone, notFoundCm, notFoundIcd9, priced };
  for (const entry of entries) {
    const { candidates } = entry;
    const parsed: ParsedCode = entry;
    if (candidates.length === 0) {
      const label = named && named.length === 1 && named[0] ? systemLabel(named[0]) : named ? 'ICD-9-CM' : undefined;
      entry.detail = fail(
        unsettled(parsed.input.trim().toUpperCase(), parsed.code),
        'CODE_MALFORMED',
        reasonMessage('CODE_MALFORMED', { input: parsed.input, label }),
      );
      continue;
    }
    const { systems, existing } =
      candidates.length === 1
        ? { systems: candidates, existing: true }
        : settleSystems(parsed.code, candidates, lookups);
    if (systems.length > 1) {
      entry.detail = ambiguous(parsed, systems, existing, lookups);
      continue;
    }
    const system = systems[0] as CodeSystem;
    const lookup = lookups.get(system) as SystemLookup;
    const settled: Settled = { entry, system, code: parsed.code, lookup };
    entry.detail = classify(settled, date, later, mce);
  }

  // Step 4: second batches.
  resolveDeleted(ref, date, gone);
  resolveNotFoundCm(ref, notFoundCm, headers);
  resolveHeaders(ref, date, headers, notFoundIcd9);
  addStatusIndicators(ref, date, priced);

  // Step 5: finish (the entries are already remembered).
  for (const entry of entries) {
    entry.answer = finish(entry.detail as Draft);
  }
}

/**
 * One-code form of {@link codeDetails}.
 * @throws RangeError as codeDetails
 */
export function codeDetail(ref: CodesReference, code: string, date: string, codeSet?: string): CodeDetail {
  return codeDetails(ref, [code], date, codeSet)[0] as CodeDetail;
}

/** The answer for a string several code sets could hold. */
function ambiguous(
  parsed: ParsedCode,
  systems: readonly CodeSystem[],
  existing: boolean,
  lookups: ReadonlyMap<CodeSystem, SystemLookup>,
): Draft {
  const candidates: CodeCandidate[] = systems.map((s) => {
    const lookup = lookups.get(s);
    const versions = lookup?.versions(parsed.code) ?? [];
    const version = (lookup && onDateOf(lookup, versions)) ?? versions.at(-1);
    const description = version?.longTitle ?? version?.shortTitle ?? undefined;
    const code = displayCode(s, parsed.code);
    return description ? { codeType: codeTypeOf(s), code, description } : { codeType: codeTypeOf(s), code };
  });
  const readings = listOf(systems.map((s) => `${systemLabel(s)} ${displayCode(s, parsed.code)}`));
  const d = unsettled(parsed.code, parsed.code);
  d.candidates = candidates;
  if (existing) {
    return fail(
      d,
      'CODE_AMBIGUOUS',
      reasonMessage('CODE_AMBIGUOUS', {
        code: parsed.code,
        readings: `a code of ${systems.length} code sets: ${readings}`,
      }),
    );
  }
  const labels = systems.map(systemLabel);
  const label = `${labels.slice(0, -1).join(', ')} or ${labels.at(-1) ?? ''}`;
  return fail(
    d,
    'CODE_NOT_FOUND',
    reasonMessage('CODE_NOT_FOUND', { code: parsed.code, label, releases: 'it has the shape of each' }),
  );
}

interface FollowUps {
  readonly headers: Settled[];
  readonly deleted: Gone[];
  readonly notFoundCm: Settled[];
  readonly notFoundIcd9: Settled[];
  readonly priced: Settled[];
}

/** Classifies a code whose system is settled. */
function classify(
  s: Settled,
  date: string,
  later: FollowUps,
  mce: (system: CodeSystem, code: string) => MceLimits,
): Draft {
  const { system, code, lookup } = s;
  const label = systemLabel(system);
  const shown = displayCode(system, code);

  // CPT without a descriptor file, or HCPCS after the loaded HCPCS file's quarter: the OPPS addendum on the date is
  // all there is.
  if (lookup.opps) {
    return fromAddendum(s, lookup.opps, date, later);
  }

  const history = lookup.versions(code);
  const version = onDateOf(lookup, history);
  const known = version ?? history.at(-1);
  const d = baseOf(system, code, shown, known);

  // Dates outside the code set's life, or before the oldest release loaded.
  if (isIcd10(system) && date < ICD10_START) {
    return fail(d, 'CODE_ICD10_NOT_YET', reasonMessage('CODE_ICD10_NOT_YET', { code: shown, label }));
  }
  if (isIcd9(system)) {
    if (date >= ICD10_START) {
      d.release = known?.lastRelease;
      return known
        ? fail(d, 'CODE_ICD9_ENDED', reasonMessage('CODE_ICD9_ENDED', { code: shown }))
        : fail(
            d,
            'CODE_NOT_FOUND',
            reasonMessage('CODE_NOT_FOUND', { code: shown, label, releases: releaseSpan(lookup) }),
          );
    }
    if (lookup.date !== date) {
      addNote(d, CODE_NOTES.icd9V32(date, lookup.date));
    }
  }
  const uncovered = releaseGap(lookup.releases, date);
  if (isIcd10(system) && uncovered !== undefined) {
    // The MCE lists are data of their own: a version may cover the date when no code release does.
    applyLimits(d, mce(system, code));
    d.noData = true;
    return fail(d, 'CODE_NO_DATA', reasonMessage('CODE_NO_DATA', { code: shown, label, date, coverage: uncovered }));
  }

  if (version) {
    d.release = releaseOn(lookup.releases, lookup.date)?.release ?? version.lastRelease;
    if (isIcd10(system)) {
      applyLimits(d, mce(system, code));
    } else if (system === 'ICD9CM_DX' && code.startsWith('E')) {
      d.unacceptablePrincipalDx = true;
    }
    if (!version.billable) {
      later.headers.push(s);
      return d;
    }
    d.isValid = true;
    if (system === 'HCPCS' || system === 'CPT') {
      later.priced.push(s);
    }
    return d;
  }
  if (known) {
    const firstVersion = history[0] as CodeVersion;
    if (firstVersion.validFrom > lookup.date && history.every((v) => v.validFrom > lookup.date)) {
      return fail(
        d,
        'CODE_NOT_YET_VALID',
        reasonMessage('CODE_NOT_YET_VALID', {
          code: shown,
          label,
          validFrom: firstVersion.validFrom,
          release: firstVersion.firstRelease,
          date,
        }),
      );
    }
    return deleted(s, d, history, later);
  }
  if (system === 'ICD10CM') {
    later.notFoundCm.push(s);
    return d;
  }
  if (isIcd9(system)) {
    return notFoundIcd9(s, d, later);
  }
  return fail(
    d,
    'CODE_NOT_FOUND',
    reasonMessage('CODE_NOT_FOUND', { code: shown, label, releases: releaseSpan(lookup) }),
  );
}

/**
 * OPPS Addendum B lists no H, S or T codes (Medicaid and private-payer codes Medicare does not recognise): their
 * absence from it proves nothing.
 */
const NOT_IN_ADDENDUM = /^[HST]/;

/**
 * A CPT code (no descriptor file) or an HCPCS code (after the HCPCS file's quarter) answered by the OPPS Addendum B in
 * force on the date: found is valid, with its status indicator. Absent, it is deleted when the HCPCS file ended it
 * (its termination date) or an earlier loaded addendum or the HCPCS file had it, not yet valid when only a later
 * addendum has it, and not found when none has; on a date no addendum covers, or for the H, S and T codes no
 * addendum lists, its validity is unknown (never NotFound), and so it is when only a DERIVED addendum covers the date
 * and no official one after the code's last listing lacks it (a derived copy may be incomplete: the April 2026 one
 * lacks L6000-L6020).
 */
function fromAddendum(s: Settled, opps: ReadonlyMap<string, OppsEntry>, date: string, later: FollowUps): Draft {
  const { system, code, lookup } = s;
  const label = systemLabel(system);
  const shown = displayCode(system, code);
  const row = opps.get(code);
  const hcpcs = system === 'HCPCS';
  const history = hcpcs ? lookup.versions(code) : [];
  const last = history.at(-1);
  const d = baseOf(system, code, shown, last);
  const hcpcsFile = lookup.releases.at(-1)?.release;
  const uncovered = !lookup.oppsCovered;
  const unlisted = hcpcs && NOT_IN_ADDENDUM.test(code);
  const found = row ? (row.derived ? 'derived' : 'official') : undefined;
  addNote(
    d,
    hcpcs
      ? CODE_NOTES.hcpcsFromAddendum(hcpcsFile, found ?? (uncovered || unlisted ? 'unanswered' : 'absent'))
      : CODE_NOTES.cptNoDescriptors(found),
  );
  if (row) {
    d.isValid = true;
    d.statusIndicator = row.statusIndicator;
    d.release = row.source.release;
    if (row.derived) {
      markDerived(d, CODE_NOTES.oppsDerived('Validity and status indicator', row.validFrom));
    }
    return d;
  }
  if (last?.validTo !== undefined && last.validTo !== null && last.validTo < date) {
    // The HCPCS file itself ended the code (its termination date): its last day and cross-references.
    return deleted(s, d, history, later);
  }
  if (uncovered || unlisted) {
    const coverage = uncovered
      ? lookup.addenda.length === 0
        ? 'no OPPS Addendum B is loaded'
        : `the OPPS Addendum B is loaded for ${listOf(lookup.addenda.map((r) => r.release))} only`
      : `the newest HCPCS file is ${hcpcsFile ?? 'none'}, and the OPPS Addendum B lists no H, S or T codes`;
    d.noData = true;
    return fail(d, 'CODE_NO_DATA', reasonMessage('CODE_NO_DATA', { code: shown, label, date, coverage }));
  }
  const listings = lookup.listings(code);
  const before = listings.findLast((r) => r.validTo !== null && r.validTo < date);
  const addendum = `the OPPS Addendum B in force on ${date}`;
  const after = listings.find((r) => r.validFrom > date);
  // An official addendum in force after the code's last listing, up to the date, that does not list it: deleted.
  const lastSeen = [before?.validFrom, last?.validFrom].filter((v): v is string => v !== undefined).sort().at(-1) ?? '';
  const listedIn = new Set(listings.map((r) => r.release));
  const officialGone = lookup.addenda.some(
    (r) => !r.derived && r.validFrom > lastSeen && r.validFrom <= date && !listedIn.has(r.release),
  );
  if (lookup.oppsDerivedOnly && !officialGone && (before !== undefined || last !== undefined || after !== undefined)) {
    // A code an official file had is missing from a derived copy: the copy may be incomplete, so that proves neither a
    // deletion nor a later start.
    const coverage = `only a derived (not official) OPPS Addendum B covers the date, and ${shown} is missing from it though ${before?.release ?? after?.release ?? last?.lastRelease ?? 'an earlier'} ${before !== undefined || after !== undefined ? 'OPPS Addendum B' : 'HCPCS file'} lists it`;
    d.noData = true;
    return fail(d, 'CODE_NO_DATA', reasonMessage('CODE_NO_DATA', { code: shown, label, date, coverage }));
  }
  if (before !== undefined || last !== undefined) {
    d.release = before?.release ?? last?.lastRelease;
    const evidence =
      before !== undefined
        ? `in the ${before.release} OPPS Addendum B, not in ${addendum}`
        : `in the ${last?.lastRelease ?? ''} HCPCS file, not in ${addendum}`;
    const params = { code: shown, label, evidence, deletedIn: undefined, replacedBy: [], table: undefined };
    return fail(d, 'CODE_DELETED', reasonMessage('CODE_DELETED', params));
  }
  if (after !== undefined) {
    const params = {
      code: shown,
      label,
      validFrom: after.validFrom,
      release: `${after.release} OPPS Addendum B`,
      date,
    };
    return fail(d, 'CODE_NOT_YET_VALID', reasonMessage('CODE_NOT_YET_VALID', params));
  }
  return fail(
    d,
    'CODE_NOT_FOUND',
    reasonMessage('CODE_NOT_FOUND', {
      code: shown,
      label,
      releases: hcpcs
        ? `${hcpcsFile ?? 'no'} HCPCS file, OPPS Addendum B ${listOf(lookup.addenda.map((r) => r.release))}`
        : `OPPS Addendum B ${listOf(lookup.addenda.map((r) => r.release))}; no CPT descriptor file`,
    }),
  );
}

/** ICD-9-CM files list billable codes only: a string in none may be a header, decided with the header batch. */
function notFoundIcd9(s: Settled, d: Draft, later: FollowUps): Draft {
  later.notFoundIcd9.push(s);
  return fail(
    d,
    'CODE_NOT_FOUND',
    reasonMessage('CODE_NOT_FOUND', {
      code: displayCode(s.system, s.code),
      label: systemLabel(s.system),
      releases: releaseSpan(s.lookup),
    }),
  );
}

/** A code gone on the date, waiting for its replacements (one batch for all). */
interface Gone {
  readonly settled: Settled;
  readonly last: CodeVersion;
}

/** Marks a code gone on the date; its replacements and message come from {@link resolveDeleted}. */
function deleted(s: Settled, d: Draft, history: readonly CodeVersion[], later: FollowUps): Draft {
  // The last version that ended before the date.
  const last = history.findLast((v) => v.validTo !== null && v.validTo < s.lookup.date) ?? history.at(-1);
  if (last) {
    // Release-based code sets name the release that dropped the code; HCPCS and CPT codes carry their own dates.
    d.deletedIn =
      s.system === 'HCPCS' || s.system === 'CPT'
        ? undefined
        : s.lookup.releases.find((r) => r.validFrom > (last.validTo ?? ''))?.release;
    d.release = last.lastRelease;
    later.deleted.push({ settled: s, last });
  }
  return d;
}

/**
 * Deleted codes: the release that dropped each and what replaced it. ICD-10-CM codes from the CDC conversion table
 * in force on the date (else the newest loaded: they are cumulative), HCPCS codes from the cross-references of their
 * last record (one batch); no conversion table is loaded for ICD-10-PCS.
 */
function resolveDeleted(ref: CodesReference, date: string, gone: readonly Gone[]): void {
  if (gone.length === 0) {
    return;
  }
  const hcpcsCodes = gone.filter((g) => g.settled.system === 'HCPCS').map((g) => g.settled.code);
  const crossReferences =
    hcpcsCodes.length > 0 ? ref.procedures.hcpcsCrossReferences(hcpcsCodes, date) : new Map<string, string[]>();
  for (const { settled, last } of gone) {
    const { system, code } = settled;
    const d = settled.entry.detail as Draft;
    let replacedBy: string[] = [];
    let table: string | undefined;
    if (system === 'ICD10CM') {
      const links = ref.mapping.laterCodes(code, date);
      const used = links.length > 0 ? links : ref.mapping.laterCodes(code);
      replacedBy = [...new Set(used.map((l) => displayCode(system, l.currentCode)))];
      table = used[0] ? `${used[0].release} ICD-10-CM conversion table` : undefined;
    } else if (system === 'HCPCS') {
      replacedBy = crossReferences.get(code) ?? [];
      table = replacedBy.length > 0 ? 'HCPCS cross-reference' : undefined;
    }
    if (replacedBy.length > 0) {
      d.suggestions = replacedBy;
    }
    const params = {
      code: displayCode(system, code),
      label: systemLabel(system),
      lastDay: last.validTo ?? '',
      deletedIn: d.deletedIn,
      replacedBy,
      table,
    };
    fail(d, 'CODE_DELETED', reasonMessage('CODE_DELETED', params));
  }
}

/**
 * ICD-10-CM strings in no release: a 7th-character code without its placeholder X (`W21.89A`), or a 7th character
 * its stem does not allow (`S72.001Z`); otherwise not found. Stems found to need a 7th character join the header
 * batch for their children.
 */
function resolveNotFoundCm(ref: CodesReference, notFound: readonly Settled[], headers: Settled[]): void {
  if (notFound.length === 0) {
    return;
  }
  const probes = new Set<string>();
  for (const s of notFound) {
    const fixed = withPlaceholder(s.code);
    if (fixed) {
      probes.add(fixed);
    }
    if (s.code.length === 7) {
      probes.add(s.code.slice(0, 6));
    }
  }
  const lookup = (notFound[0] as Settled).lookup;
  const found = ref.codes.manyOnDate('ICD10CM', [...probes], lookup.date);
  const stems = new Set<string>();
  for (const s of notFound) {
    const d = s.entry.detail as Draft;
    const fixed = withPlaceholder(s.code);
    if (fixed && found.get(fixed)?.billable) {
      const shown = displayCode('ICD10CM', fixed);
      d.suggestions = [shown];
      fail(
        d,
        'CODE_PLACEHOLDER_MISSING',
        reasonMessage('CODE_PLACEHOLDER_MISSING', { code: displayCode('ICD10CM', s.code), fixed: shown }),
      );
      continue;
    }
    const stem = s.code.length === 7 ? found.get(s.code.slice(0, 6)) : undefined;
    if (stem && !stem.billable) {
      stems.add(stem.code);
    }
    fail(
      d,
      'CODE_NOT_FOUND',
      reasonMessage('CODE_NOT_FOUND', {
        code: displayCode('ICD10CM', s.code),
        label: 'ICD-10-CM',
        releases: releaseSpan(lookup),
      }),
    );
  }
  if (stems.size === 0) {
    return;
  }
  // A wrong 7th character: decided once the stems' children are known (they join the header batch as probes).
  for (const s of notFound) {
    if (
      s.code.length === 7 &&
      stems.has(s.code.slice(0, 6)) &&
      (s.entry.detail as Draft).reasonCode === 'CODE_NOT_FOUND'
    ) {
      headers.push({ ...s, code: s.code.slice(0, 6) });
    }
  }
}

/**
 * Header codes: their first billable children (one batch per system), the 7th characters a 7th-character leaf
 * allows, and the ICD-9-CM categories and subcategories that the v32 files do not list.
 */
function resolveHeaders(
  ref: CodesReference,
  date: string,
  headers: readonly Settled[],
  notFoundIcd9: readonly Settled[],
): void {
  const bySystem = new Map<CodeSystem, Settled[]>();
  for (const s of [...headers, ...notFoundIcd9]) {
    const list = bySystem.get(s.system);
    if (list) {
      list.push(s);
    } else {
      bySystem.set(s.system, [s]);
    }
  }
  for (const [system, settled] of bySystem) {
    const lookup = (settled[0] as Settled).lookup;
    const children = ref.codes.manyBillableDescendants(
      system,
      settled.map((s) => s.code),
      lookup.date,
      HEADER_CHILDREN,
    );
    for (const s of settled) {
      const d = s.entry.detail as Draft;
      const kids = children.get(s.code);
      const shown = displayCode(system, s.code);
      if (s.code !== s.entry.code) {
        // A 7-character probe: its stem `s.code` needs a 7th character the input does not have.
        badSeventh(ref, date, s, d, kids?.codes ?? []);
        continue;
      }
      if (!kids && isIcd9(system) && d.reasonCode === 'CODE_NOT_FOUND') {
        continue;
      }
      const list = (kids?.codes ?? []).map((c) => displayCode(system, c));
      if (list.length > 0) {
        d.suggestions = list;
      }
      if (isIcd9(system) && d.reasonCode === 'CODE_NOT_FOUND') {
        // Listed nowhere, but the prefix of billable codes: a category or subcategory of the release.
        d.release = releaseOn(s.lookup.releases, s.lookup.date)?.release;
      }
      if (system === 'ICD10CM' && needsSeventh(s.code, kids?.codes ?? [])) {
        const index = sevenChrIndexOn(ref.tabular, date);
        const def = index && sevenChrDefOf(index, s.code);
        if (index && def) {
          const placeholder = sevenChrStem(s.code) !== s.code;
          const values = describeValues(def);
          fail(
            d,
            'CODE_NEEDS_7TH',
            reasonMessage('CODE_NEEDS_7TH', { code: shown, values, at: def.at, release: index.release, placeholder }),
          );
          continue;
        }
      }
      fail(d, 'CODE_HEADER', reasonMessage('CODE_HEADER', { code: shown, children: list, total: kids?.total ?? 0 }));
    }
  }
}

/** `S72.001Z`: the stem needs a 7th character and Z is not one of them. */
function badSeventh(ref: CodesReference, date: string, s: Settled, d: Draft, children: readonly string[]): void {
  if (!needsSeventh(s.code, children)) {
    return;
  }
  const index = sevenChrIndexOn(ref.tabular, date);
  const def = index && sevenChrDefOf(index, s.code);
  const values = def ? describeValues(def) : listOf(children.map((c) => c.slice(6)));
  d.suggestions = children.map((c) => displayCode('ICD10CM', c));
  const char = s.entry.code.slice(6);
  fail(d, 'CODE_BAD_7TH', reasonMessage('CODE_BAD_7TH', { char, stem: displayCode('ICD10CM', s.code), values }));
}

/**
 * OPPS Addendum B status indicators of the valid CPT and HCPCS codes, one batch. Where only the derived rows cover the
 * date, the answer says so (`derived`, a note).
 */
function addStatusIndicators(ref: CodesReference, date: string, priced: readonly Settled[]): void {
  if (priced.length === 0) {
    return;
  }
  const rows = ref.procedures.oppsMany(
    priced.map((s) => s.code),
    date,
  );
  for (const s of priced) {
    const row = rows.get(s.code);
    if (row) {
      const d = s.entry.detail as Draft;
      d.statusIndicator = row.statusIndicator;
      if (row.derived) {
        markDerived(d, CODE_NOTES.oppsDerived('Status indicator', row.validFrom));
      }
    }
  }
}
