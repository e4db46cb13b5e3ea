// The lookups behind detection and CodeDetail: every candidate code of a batch is looked up once per code system, on
// the date (one batch query per system) and, when absent then, in every loaded release (one more). CPT without a
// user-supplied descriptor file is looked up in the OPPS Addendum B in force on the date instead (domain.md section 6).
import type { Reference } from '../../reference/index.js';
import type { CodeRelease, CodeVersion } from '../../reference/queries/codes.js';
import type { OppsEntry } from '../../reference/queries/procedures.js';
import type { CodeSystem } from '../../schemas/code-systems.js';

/** The parts of the Reference port the code engine reads. */
export type CodesReference = Pick<Reference, 'codes' | 'tabular' | 'mapping' | 'procedures' | 'policies'>;

/** What one code system answered for the codes of a batch. */
export interface SystemLookup {
  readonly system: CodeSystem;
  /** Loaded releases of the system, oldest first. */
  readonly releases: readonly CodeRelease[];
  /** The date codes were looked up on: the request's, except ICD-9-CM before v32, which is checked against v32. */
  readonly date: string;
  /** Versions in force on `date`. */
  readonly onDate: ReadonlyMap<string, CodeVersion>;
  /** Every version of the codes absent on `date`, oldest first. */
  readonly history: ReadonlyMap<string, readonly CodeVersion[]>;
  /** CPT without descriptors: the OPPS Addendum B rows on the date (`undefined` for every other case). */
  readonly opps: ReadonlyMap<string, OppsEntry> | undefined;
}

/** A system's code answered on the date, in an earlier or later release, or (CPT) in the OPPS addendum. */
export function existsIn(lookup: SystemLookup, code: string): boolean {
  return lookup.onDate.has(code) || lookup.history.has(code) || (lookup.opps?.has(code) ?? false);
}

/** The release of a system in force on a date. */
export function releaseOn(releases: readonly CodeRelease[], date: string): CodeRelease | undefined {
  for (let i = releases.length - 1; i >= 0; i--) {
    const r = releases[i];
    if (r && r.validFrom <= date && (r.validTo === null || r.validTo >= date)) {
      return r;
    }
  }
  return undefined;
}

/**
 * Looks a batch's codes up, one batch query per system (and one more for the codes absent on the date).
 * @param ref - the Reference port
 * @param date - the date of service
 * @param wanted - the codes to look up in each system (normalised)
 */
export function lookUp(
  ref: CodesReference,
  date: string,
  wanted: ReadonlyMap<CodeSystem, readonly string[]>,
): Map<CodeSystem, SystemLookup> {
  const found = new Map<CodeSystem, SystemLookup>();
  for (const [system, codes] of wanted) {
    const releases = ref.codes.releases(system);
    const first = releases[0];
    if (system === 'CPT' && !first) {
      const opps = ref.procedures.oppsMany(codes, date);
      found.set(system, { system, releases, date, onDate: new Map(), history: new Map(), opps });
      continue;
    }
    // domain.md section 4: older dates of service are checked against v32, the only ICD-9-CM release loaded.
    const icd9 = system === 'ICD9CM_DX' || system === 'ICD9CM_PROC';
    const on = icd9 && first && date < first.validFrom ? first.validFrom : date;
    const onDate = ref.codes.manyOnDate(system, codes, on);
    const missing = onDate.size === codes.length ? [] : codes.filter((c) => !onDate.has(c));
    const history = missing.length > 0 ? ref.codes.manyHistory(system, missing) : new Map<string, CodeVersion[]>();
    found.set(system, { system, releases, date: on, onDate, history, opps: undefined });
  }
  return found;
}

/**
 * Settles which systems a string belongs to, by existence among the systems its shape fits: those where it exists
 * in some loaded release, or, when it exists in none, the shape candidates themselves.
 * @returns `existing`: true when the systems were chosen by existence
 */
export function settleSystems(
  code: string,
  candidates: readonly CodeSystem[],
  lookups: ReadonlyMap<CodeSystem, SystemLookup>,
): { readonly systems: readonly CodeSystem[]; readonly existing: boolean } {
  if (candidates.length <= 1) {
    const only = candidates[0];
    const lookup = only === undefined ? undefined : lookups.get(only);
    return { systems: candidates, existing: lookup !== undefined && existsIn(lookup, code) };
  }
  const existing = candidates.filter((s) => {
    const lookup = lookups.get(s);
    return lookup !== undefined && existsIn(lookup, code);
  });
  return existing.length > 0 ? { systems: existing, existing: true } : { systems: candidates, existing: false };
}
