// The lookups behind detection and CodeDetail: per code system, a code's versions (every loaded release) and the one in
// force on the date, read from the Reference's in-memory code tables one code at a time (no batch query to build).
// CPT without a user-supplied descriptor file is looked up in the OPPS Addendum B in force on the date instead (domain.md
// section 6), one batch query for the batch's codes.
import type { Reference } from '../../reference/index.js';
import type { CodeRelease, CodeVersion } from '../../reference/queries/codes.js';
import type { OppsEntry } from '../../reference/queries/procedures.js';
import { ICD10_START, type CodeSystem } from '../../schemas/code-systems.js';
import { afterNewest, firstInForce, inForce } from '../../schemas/validity.js';

/** The parts of the Reference port the code engine reads. */
export type CodesReference = Pick<Reference, 'codes' | 'tabular' | 'mapping' | 'procedures' | 'policies'>;

/** What one code system answers for the codes of a batch. */
export interface SystemLookup {
  readonly system: CodeSystem;
  /** Loaded releases of the system, oldest first. */
  readonly releases: readonly CodeRelease[];
  /** The date codes are looked up on: the request's, except ICD-9-CM before v32, which is checked against v32. */
  readonly date: string;
  /** Every version of a code, oldest first (empty when no loaded release has it). */
  versions(code: string): readonly CodeVersion[];
  /**
   * The OPPS Addendum B rows on the date (`undefined` for every other case), read for CPT without a descriptor file,
   * and for HCPCS Level II on a date after the loaded HCPCS file's quarter (domain.md section 6: the addendum lists
   * every code Medicare recognises, with its status indicator).
   */
  readonly opps: ReadonlyMap<string, OppsEntry> | undefined;
  /** With `opps`: whether a loaded addendum covers the date (when none does, a code's absence proves nothing). */
  readonly oppsCovered: boolean;
  /** With `opps`: whether only DERIVED addenda cover the date (a code's absence from them proves no deletion). */
  readonly oppsDerivedOnly: boolean;
  /** With `opps`: the loaded addenda, oldest first, each official or DERIVED (empty otherwise). */
  readonly addenda: readonly (CodeRelease & { readonly derived: boolean })[];
  /**
   * With `opps`: the loaded addenda that list a code, oldest first (none on a date before 2015-10-01, when ICD-9-CM and
   * not CPT is what an undotted code of both shapes means).
   */
  listings(code: string): readonly CodeRelease[];
}

/** The version of a code in force on the lookup's date. */
export function onDateOf(lookup: SystemLookup, versions: readonly CodeVersion[]): CodeVersion | undefined {
  return firstInForce(versions, lookup.date);
}

/** A system's code answered on the date, in an earlier or later release, or in an OPPS addendum of any quarter. */
export function existsIn(lookup: SystemLookup, code: string): boolean {
  return (
    lookup.versions(code).length > 0 ||
    (lookup.opps !== undefined && (lookup.opps.has(code) || lookup.listings(code).length > 0))
  );
}

/** The release of a system in force on a date. */
export function releaseOn(releases: readonly CodeRelease[], date: string): CodeRelease | undefined {
  for (let i = releases.length - 1; i >= 0; i--) {
    const r = releases[i];
    if (r && inForce(r, date)) {
      return r;
    }
  }
  return undefined;
}

/**
 * Prepares each system's lookups for a batch.
 * @param ref - the Reference port
 * @param date - the date of service
 * @param systems - the systems the batch's codes may belong to
 * @param addendumCodes - the batch's codes that may be CPT or HCPCS codes (normalised): CPT without a descriptor file,
 *   and HCPCS after the loaded HCPCS file's quarter, are read from the OPPS addendum in one query; every other
 *   system reads its in-memory table one code at a time
 */
export function lookUp(
  ref: CodesReference,
  date: string,
  systems: Iterable<CodeSystem>,
  addendumCodes: readonly string[],
): Map<CodeSystem, SystemLookup> {
  const found = new Map<CodeSystem, SystemLookup>();
  // One addendum read per batch, shared by CPT and HCPCS.
  let opps: ReadonlyMap<string, OppsEntry> | undefined;
  let coverage: ReturnType<CodesReference['procedures']['oppsCovers']> | undefined;
  // Before ICD-10 an undotted code that is also a CPT code is read as the ICD-9-CM code it then was.
  const listings = (code: string): readonly CodeRelease[] =>
    date >= ICD10_START ? ref.procedures.oppsListings(code) : [];
  for (const system of systems) {
    const releases = ref.codes.releases(system);
    const first = releases[0];
    const versions = (code: string): readonly CodeVersion[] => ref.codes.history(system, code);
    if ((system === 'CPT' && !first) || (system === 'HCPCS' && (!first || afterNewest(releases, date)))) {
      opps ??= ref.procedures.oppsMany(addendumCodes, date);
      coverage ??= ref.procedures.oppsCovers(date);
      const { covered: oppsCovered, derivedOnly: oppsDerivedOnly, loaded: addenda } = coverage;
      found.set(system, { system, releases, date, versions, opps, oppsCovered, oppsDerivedOnly, addenda, listings });
      continue;
    }
    // domain.md section 4: older dates of service are checked against v32, the only ICD-9-CM release loaded.
    const icd9 = system === 'ICD9CM_DX' || system === 'ICD9CM_PROC';
    const on = icd9 && first && date < first.validFrom ? first.validFrom : date;
    const none = { opps: undefined, oppsCovered: false, oppsDerivedOnly: false, addenda: [], listings: () => [] };
    found.set(system, { system, releases, date: on, versions, ...none });
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
