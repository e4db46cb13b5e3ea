// Every text the code engine writes, in one place: the reason codes (what each means, which `invalidReason` it
// carries, and the template of its message) and the informational notes. Codes are named by their display form;
// lists are joined here so every message reads the same way.
import type { CodeReasonCode, InvalidReason } from '../../schemas/codes.js';

/** Parameters of each reason's message. */
interface ReasonParams {
  CODE_NOT_FOUND: { code: string; label: string; releases: string };
  CODE_NOT_YET_VALID: { code: string; label: string; validFrom: string; release: string; date: string };
  CODE_DELETED: {
    code: string;
    label: string;
    /** The last day in force; or, when no last day is recorded, `evidence`: what shows the code gone. */
    lastDay?: string | undefined;
    evidence?: string | undefined;
    deletedIn: string | undefined;
    replacedBy: string[];
    table: string | undefined;
  };
  CODE_ICD9_ENDED: { code: string };
  CODE_ICD10_NOT_YET: { code: string; label: string };
  CODE_NO_DATA: { code: string; label: string; date: string; coverage: string };
  CODE_HEADER: { code: string; children: string[]; total: number };
  CODE_NEEDS_7TH: { code: string; values: string; at: string; release: string; placeholder: boolean };
  CODE_PLACEHOLDER_MISSING: { code: string; fixed: string };
  CODE_BAD_7TH: { char: string; stem: string; values: string };
  CODE_MALFORMED: { input: string; label: string | undefined };
  CODE_AMBIGUOUS: { code: string; readings: string };
}

interface ReasonEntry<K extends CodeReasonCode> {
  /** The spec's `invalidReason` the code carries; `undefined` when validity is not decided (ambiguous, no data). */
  readonly invalidReason: InvalidReason | undefined;
  /** What the code means, for the README table. */
  readonly meaning: string;
  readonly render: (p: ReasonParams[K]) => string;
}

/** `A, B and C`; `A` alone; empty for none. */
export function listOf(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

/** The reason codes (schemas/codes.ts `CodeReasonCode`) with their `invalidReason`, meaning and message template. */
export const CODE_REASONS: { readonly [K in CodeReasonCode]: ReasonEntry<K> } = {
  CODE_NOT_FOUND: {
    invalidReason: 'NotFound',
    meaning: 'The code is in no loaded release of its code set.',
    render: (p) =>
      `${p.code} is not a${/^[AEIOUH]/.test(p.label) ? 'n' : ''} ${p.label} code in any loaded release (${p.releases}).`,
  },
  CODE_NOT_YET_VALID: {
    invalidReason: 'NotFound',
    meaning: 'The code exists only in releases that take effect after the date.',
    render: (p) =>
      `${p.code} takes effect on ${p.validFrom} (${p.release}): it is not in the ${p.label} code set on ${p.date}.`,
  },
  CODE_DELETED: {
    invalidReason: 'Deleted',
    meaning:
      'The code was in an earlier release and is gone on the date; the message names the release that dropped it and its replacement.',
    render: (p) =>
      `${p.code} was deleted${p.deletedIn ? ` in ${p.deletedIn}` : ''} (${p.evidence ?? `last valid ${p.lastDay ?? ''}`}); ` +
      (p.replacedBy.length > 0
        ? `replaced by ${listOf(p.replacedBy)}${p.table ? ` (${p.table})` : ''}.`
        : `no replacement is recorded${p.table ? ` (${p.table})` : ''}.`),
  },
  CODE_ICD9_ENDED: {
    invalidReason: 'Deleted',
    meaning: 'An ICD-9-CM code on a date from 2015-10-01: ICD-9-CM ended for services on 2015-09-30.',
    render: (p) =>
      `${p.code} is an ICD-9-CM code: ICD-9-CM ended for services on 2015-09-30 (v32 was its last release); code the service in ICD-10.`,
  },
  CODE_ICD10_NOT_YET: {
    invalidReason: 'Invalid',
    meaning: 'An ICD-10 code on a date before 2015-10-01, when ICD-10 took effect.',
    render: (p) =>
      `${p.code} is an ${p.label} code: ICD-10 codes are not valid for services before 2015-10-01; code the service in ICD-9-CM.`,
  },
  CODE_NO_DATA: {
    invalidReason: undefined,
    meaning: 'No loaded release of the code set covers the date: validity is unknown (never a pass).',
    render: (p) =>
      `No ${p.label} release is loaded for ${p.date} (${p.coverage}): the validity of ${p.code} on that date is unknown.`,
  },
  CODE_HEADER: {
    invalidReason: 'Invalid',
    meaning:
      'The code is a header (category or subcategory), not billable; the message lists up to 10 billable codes under it.',
    render: (p) =>
      `${p.code} is a header, not a billable code; ` +
      (p.total === 0
        ? 'no billable code under it is in force.'
        : `billable codes under it: ${p.children.join(', ')}${p.total > p.children.length ? ` (first ${p.children.length} of ${p.total})` : ''}.`),
  },
  CODE_NEEDS_7TH: {
    invalidReason: 'Invalid',
    meaning: 'The code needs a 7th character (ICD-10-CM sevenChrDef); the message lists the allowed ones.',
    render: (p) =>
      `${p.code} needs ${p.placeholder ? 'the placeholder X and ' : ''}a 7th character: ${p.values} (sevenChrDef at ${p.at}, ${p.release} Tabular List).`,
  },
  CODE_PLACEHOLDER_MISSING: {
    invalidReason: 'Invalid',
    meaning: 'A 7th-character code written without its placeholder X (`W21.89A` for `W21.89XA`).',
    render: (p) => `${p.code} is missing the placeholder X: the code is ${p.fixed}.`,
  },
  CODE_BAD_7TH: {
    invalidReason: 'Invalid',
    meaning: 'The 7th character is not one the code allows.',
    render: (p) => `${p.char} is not a 7th character of ${p.stem}: allowed are ${p.values}.`,
  },
  CODE_MALFORMED: {
    invalidReason: 'Invalid',
    meaning: 'The string has the shape of no code of the code set named (or of any code set).',
    render: (p) =>
      p.label
        ? `${JSON.stringify(p.input)} is not a well-formed ${p.label} code.`
        : `${JSON.stringify(p.input)} has the shape of no ICD-10-CM, ICD-10-PCS, ICD-9-CM, CPT or HCPCS code.`,
  },
  CODE_AMBIGUOUS: {
    invalidReason: undefined,
    meaning: 'The string is a code of several code sets and none was named; the candidates are listed.',
    render: (p) => `${p.code} is ${p.readings}: name the code set.`,
  },
};

/**
 * Renders a reason's message.
 * @param code - the reason code
 * @param params - the values its template names
 */
export function reasonMessage<K extends CodeReasonCode>(code: K, params: ReasonParams[K]): string {
  return (CODE_REASONS[code] as ReasonEntry<K>).render(params);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

/** `2026-04-01` → `April 2026`. */
function monthYear(iso: string): string {
  return `${MONTHS[Number(iso.slice(5, 7)) - 1] ?? iso.slice(5, 7)} ${iso.slice(0, 4)}`;
}

/** Informational notes (CodeDetail `notes`). */
export const CODE_NOTES = {
  icd9V32: (requested: string, from: string): string =>
    `ICD-9-CM checked against v32 (in force from ${from}) for ${requested}: older ICD-9-CM releases are not loaded.`,
  cptNoDescriptors: (found: 'official' | 'derived' | undefined): string =>
    `CPT descriptors are not loaded (AMA content: supply a descriptor file); ${
      found === 'derived'
        ? 'the code was found in the derived OPPS table in force on the date'
        : `${found ? 'the code was found in' : 'CPT codes are checked against'} the OPPS Addendum B in force on the date`
    }.`,
  /**
   * HCPCS Level II on a date after the newest loaded HCPCS file: how the OPPS addendum answered.
   * @param hcpcsRelease - the newest HCPCS file (`undefined`: none loaded)
   * @param found - `official`/`derived`: the code's row was found in that table; `absent`: the addendum in force lacks
   *   it; `unanswered`: no addendum covers the date or lists codes of its kind (H, S, T)
   */
  hcpcsFromAddendum: (
    hcpcsRelease: string | undefined,
    found: 'official' | 'derived' | 'absent' | 'unanswered',
  ): string =>
    `No loaded HCPCS file covers the date (${hcpcsRelease === undefined ? 'none is loaded' : `the newest is ${hcpcsRelease}`})${
      found === 'official'
        ? ': the code was found in the OPPS Addendum B in force on the date'
        : found === 'derived'
          ? ': the code was found in the derived OPPS table in force on the date'
          : found === 'absent'
            ? ': HCPCS Level II codes are checked against the OPPS Addendum B in force on the date'
            : ', and no OPPS Addendum B answers for the code on the date'
    }.`,
  /**
   * An answer read from the DERIVED OPPS rows (a third-party reshaped file, dataset `opps-addendum-b-derived`), which
   * are served only where no official Addendum B row covers the date.
   * @param what - the part of the answer the rows gave (`Status indicator`, `Validity and status indicator`)
   * @param validFrom - the first day of the derived table's quarter (`2026-04-01`, written `April 2026`)
   *
   * The note does not write the date out (the claim or request names it): one note serves every date of an epoch
   * (CodeQueries.epochOf), so the claim engine reads a code's detail once for all of them.
   */
  oppsDerived: (what: string, validFrom: string): string =>
    `${what} from the derived ${monthYear(validFrom)} OPPS table (not an official CMS file): no official Addendum B covers the date.`,
  noMce: (): string =>
    'No MCE version covers the date: age, sex and principal-diagnosis limits not checked (defaults shown).',
  mceNoAgeRange: (version: string, list: string): string =>
    `MCE ${version} list ${list} gives no age range: default ages shown.`,
} as const;
