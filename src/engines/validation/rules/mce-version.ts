// What every MCE rule shares (issue 11 §2 rule 2): the MCE version in force on a claim's date with its edits and code
// lists (read once per version and indexed by code), or a `notChecked` entry naming the version that would apply.
// The MCE picks its version by discharge date: FY N starts on October 1 of N-1 with version v(N-1983).0 and takes
// its April update v(N-1983).1 on April 1 ("Definitions of Medicare Code Edits", one manual per version).
import type { MceEdit, MceList, MceMembership, PolicyQueries } from '../../../reference/queries/policies.js';
import type { FindingSource } from '../../../schemas/findings.js';
import { fiscalYearOf } from '../../../schemas/validity.js';
import type { ClaimView, DxView, LineView } from '../context.js';
import type { FindingSink } from '../rule.js';

/** One MCE list of a version with its members by code (undotted). */
export interface MceListIndex {
  readonly list: MceList;
  readonly members: ReadonlyMap<string, MceMembership>;
}

/** The MCE version in force on a date, its edits by id and its lists (read on first use). */
interface MceVersionIndex {
  readonly version: string;
  readonly derived: boolean;
  readonly date: string;
  readonly edits: ReadonlyMap<string, MceEdit>;
  readonly lists: Map<string, MceListIndex | null>;
  /** Lists merged by code for the rules that read several lists per diagnosis, keyed by the rule's list ids array. */
  readonly merged: Map<readonly string[], ReadonlyMap<string, readonly MceHit[]>>;
  /** Each edit as rules apply it, made on first use (`null`: deactivated by the version). */
  readonly ready: Map<string, MceEditOn | null>;
}

/** A code's membership of one list. */
export interface MceHit {
  readonly l: MceListIndex;
  readonly m: MceMembership;
}

/** One MCE edit as a rule applies it on a claim. */
export interface MceEditOn {
  /** `v43.1`. */
  readonly version: string;
  readonly edit: MceEdit;
  /** What a finding of the edit rests on: the official manual, or the derived (third-party) v37 table. */
  readonly source: FindingSource;
  /** A list of the version, or `undefined` when the version has no such list (or it is deactivated). */
  list(id: string): MceListIndex | undefined;
  /** The version's index (for {@link mceMergedOn}). */
  readonly index: MceVersionIndex;
}

const MAX_REMEMBERED_DATES = 20_000;
/** Per reference: date → version in force (`null`: none loaded), and each version's one index. */
interface VersionCache {
  readonly byDate: Map<string, MceVersionIndex | null>;
  readonly byVersion: Map<string, MceVersionIndex>;
}
const caches = new WeakMap<PolicyQueries, VersionCache>();


/**
 * The MCE version that applies on a date by CMS's numbering: FY N (October 1 of N-1 to September 30 of N) is
 * version v(N-1983).0 until March 31 and v(N-1983).1 from April 1.
 * @param date - ISO date
 * @returns e.g. `v43.1` for 2026-05-15, `v43.0` for 2025-10-01 (the first day of FY2026)
 */
export function mceVersionFor(date: string): string {
  const month = Number(date.slice(5, 7));
  const update = month >= 4 && month <= 9 ? 1 : 0;
  return `v${String(fiscalYearOf(date) - 1983)}.${String(update)}`;
}

/** The version in force on a date (the official release wins over the derived table), remembered per date. */
function versionOn(policies: PolicyQueries, date: string): MceVersionIndex | undefined {
  let cache = caches.get(policies);
  if (!cache) {
    cache = { byDate: new Map(), byVersion: new Map() };
    caches.set(policies, cache);
  }
  const { byDate, byVersion } = cache;
  const known = byDate.get(date);
  if (known !== undefined) {
    return known ?? undefined;
  }
  // mceEdits orders official rows before derived ones: the first row names the version to read.
  const rows = policies.mceEdits(date);
  const first = rows[0];
  let index: MceVersionIndex | null = null;
  if (first) {
    // One index (and one copy of its lists) per version, shared by every date it covers.
    const key = `${first.version}${first.derived ? '~' : ''}`;
    index = byVersion.get(key) ?? null;
    if (!index) {
      index = {
        version: first.version,
        derived: first.derived,
        date,
        edits: new Map(
          rows.filter((e) => e.version === first.version && e.derived === first.derived).map((e) => [e.edit, e]),
        ),
        lists: new Map(),
        merged: new Map(),
        ready: new Map(),
      };
      byVersion.set(key, index);
    }
  }
  if (byDate.size >= MAX_REMEMBERED_DATES) {
    byDate.clear();
  }
  byDate.set(date, index);
  return index ?? undefined;
}

/** A list of a version, indexed by code on first use; `null` when the version has no active list of that id. */
function listOf(policies: PolicyQueries, v: MceVersionIndex, id: string): MceListIndex | undefined {
  let index = v.lists.get(id);
  if (index === undefined) {
    const list = policies.mceList(id, v.date);
    index =
      list && list.version === v.version && list.derived === v.derived && list.active
        ? {
            list,
            members: new Map(
              policies
                .mceListMembers(id, v.date)
                .filter((m) => m.version === v.version && m.derived === v.derived && m.active)
                .map((m) => [m.code, m]),
            ),
          }
        : null;
    v.lists.set(id, index);
  }
  return index ?? undefined;
}

/**
 * A code's membership of a list of the MCE version in force on the claim's diagnosis date, for a rule that reads the
 * list as a code set of its own (no finding or not-checked entry of the MCE's): `undefined` when the code is not on
 * it, or no version or active list is loaded.
 * @param code - upper-case, undotted
 */
export function mceMemberOn(view: ClaimView, listId: string, code: string): MceMembership | undefined {
  const v = versionOn(view.ref.policies, view.dxDate);
  return v === undefined ? undefined : listOf(view.ref.policies, v, listId)?.members.get(code);
}

/**
 * The MCE edit in force on a claim's date, ready to apply. Reports `notChecked` (naming the version that would apply,
 * or the edit the loaded version does not describe) and returns `undefined` when it cannot run; returns `undefined`
 * silently when the version deactivates the edit (sex conflict since 2024-10-01: no findings then).
 * @param view - the claim
 * @param edit - the edit id as the policies loader names it (`age-conflict`, `external-cause-as-principal-dx`)
 * @param out - where the rule reports
 * @param deactivatedSince - the date CMS deactivated the edit from, when it did: on a later date no version needs to
 *   be loaded to know the edit finds nothing (no "the edit of v43.0 would apply" for an edit v43.0 does not run)
 */
export function mceEditOn(view: ClaimView, edit: string, out: FindingSink, deactivatedSince?: string): MceEditOn | undefined {
  const policies = view.ref.policies;
  // Chosen by the date diagnoses are read on: the discharge (through) date of an inpatient claim.
  const date = view.dxDate;
  const v = versionOn(policies, date);
  if (!v) {
    if (deactivatedSince !== undefined && date >= deactivatedSince) {
      return undefined;
    }
    const expected = mceVersionFor(date);
    out.notChecked({
      lines: [],
      reason: `No loaded MCE version covers ${date}: the ${edit} edit of MCE ${expected} would apply.`,
      missing: `MCE ${expected} definitions`,
    });
    return undefined;
  }
  const ready = v.ready.get(edit);
  if (ready !== undefined) {
    return ready ?? undefined;
  }
  const e = v.edits.get(edit);
  const label = `MCE ${v.version}${v.derived ? ' (derived table)' : ''}`;
  if (!e) {
    out.notChecked({
      lines: [],
      reason: `The loaded ${label} does not describe the ${edit} edit.`,
      missing: `MCE ${v.version} ${edit} definition`,
    });
    return undefined;
  }
  // One object per version and edit, shared by every claim the version covers.
  const made: MceEditOn | null = e.active
    ? {
        version: v.version,
        edit: e,
        source: v.derived
          ? { dataset: `mce-${v.version}-derived`, release: v.version, derived: true }
          : { dataset: 'mce', release: v.version },
        list: (id) => listOf(policies, v, id),
        index: v,
      }
    : null;
  v.ready.set(edit, made);
  return made ?? undefined;
}

/**
 * The lists an edit needs, or `undefined` after a `notChecked` entry naming the first one the version lacks.
 * @param on - the edit in force
 * @param ids - list ids (`age-newborn`, `non-covered-a`)
 * @param out - where the rule reports
 */
export function mceListsOn(on: MceEditOn, ids: readonly string[], out: FindingSink): MceListIndex[] | undefined {
  const lists: MceListIndex[] = [];
  for (const id of ids) {
    const list = on.list(id);
    if (!list) {
      out.notChecked({
        lines: [],
        reason: `The loaded MCE ${on.version} has no ${id} list for the ${on.edit.edit} edit.`,
        missing: `MCE ${on.version} ${id} list`,
      });
      return undefined;
    }
    lists.push(list);
  }
  return lists;
}

/**
 * The lists an edit needs merged into one map: code → its memberships, in the order of `ids` (one probe per code
 * instead of one per list). `undefined` after a `notChecked` entry, as {@link mceListsOn}.
 * @param on - the edit in force
 * @param ids - list ids, a constant array of the rule (the merged map is kept per array)
 * @param out - where the rule reports
 */
export function mceMergedOn(
  on: MceEditOn,
  ids: readonly string[],
  out: FindingSink,
): ReadonlyMap<string, readonly MceHit[]> | undefined {
  const known = on.index.merged.get(ids);
  if (known !== undefined) {
    return known;
  }
  const lists = mceListsOn(on, ids, out);
  if (!lists) {
    return undefined;
  }
  const merged = new Map<string, MceHit[]>();
  for (const l of lists) {
    for (const m of l.members.values()) {
      const hits = merged.get(m.code);
      if (hits) {
        hits.push({ l, m });
      } else {
        merged.set(m.code, [{ l, m }]);
      }
    }
  }
  on.index.merged.set(ids, merged);
  return merged;
}

/** The claim's ICD-10-PCS procedure lines (the MCE's procedures). */
export function pcsLines(view: ClaimView): LineView[] {
  return view.lines.filter((l) => l.detail.codeType === 'ICD-10 PCS');
}

/**
 * For the procedure edits of inpatient claims that read one list: the edit in force, the list, and the claim's
 * ICD-10-PCS lines on it; `undefined` when there are none (other claim types, no listed procedure, or `notChecked`
 * reported).
 * @param view - the claim
 * @param edit - the edit id
 * @param list - the list of procedures
 * @param out - where the rule reports
 */
export function proceduresOnList(
  view: ClaimView,
  edit: string,
  list: string,
  out: FindingSink,
): { on: MceEditOn; index: MceListIndex; lines: LineView[] } | undefined {
  const procedures = view.inpatient ? pcsLines(view) : [];
  if (procedures.length === 0) {
    return undefined;
  }
  const on = mceEditOn(view, edit, out);
  const [index] = (on && mceListsOn(on, [list], out)) ?? [];
  const lines = index ? procedures.filter((l) => index.members.has(l.norm)) : [];
  return on && index && lines.length > 0 ? { on, index, lines } : undefined;
}

/** A code as a message shows it: as submitted, with the manual's title when there is one. */
export function described(code: string, m: MceMembership | undefined): string {
  return m?.description ? `${code} (${m.description})` : code;
}

/**
 * For the principal-diagnosis edits of inpatient claims: the edit in force and the principal diagnosis's place on
 * one of its lists, or `undefined` (other claim types, no diagnosis, not on the list, or `notChecked` reported).
 * @param view - the claim
 * @param edit - the edit id
 * @param list - the list read for the principal diagnosis only
 * @param out - where the rule reports
 */
export function principalOnList(
  view: ClaimView,
  edit: string,
  list: string,
  out: FindingSink,
): { on: MceEditOn; pdx: DxView; member: MceMembership } | undefined {
  const pdx = view.dx[0];
  if (!view.inpatient || !pdx) {
    return undefined;
  }
  const on = mceEditOn(view, edit, out);
  const [index] = (on && mceListsOn(on, [list], out)) ?? [];
  const member = index?.members.get(pdx.norm);
  return on && member ? { on, pdx, member } : undefined;
}
