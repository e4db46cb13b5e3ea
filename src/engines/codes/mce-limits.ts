// CodeDetail's MCE fields (domain.md section 13): minAge/maxAge from the age-conflict lists, reqGender from the
// sex-conflict lists, unacceptablePrincipalDx from the unacceptable-principal-diagnosis lists, as the MCE version in
// force on the date has them. The lists of one version are read once and indexed by code; which version a date
// falls in is itself remembered per date, so a claim file with many dates of service costs a few point lookups per
// new date, not a reload.
import type { Reference } from '../../reference/index.js';
import type { MceList, MceMembership } from '../../reference/queries/policies.js';
import type { CodeSystem } from '../../schemas/code-systems.js';
import { CODE_NOTES } from './messages.js';

/** The MCE lists CodeDetail reads (stable list ids of the policies loader). */
const AGE_LISTS = ['age-newborn', 'age-pediatric', 'age-maternity', 'age-adult'] as const;
const SEX_LISTS = [
  'sex-female-diagnoses',
  'sex-female-procedures',
  'sex-male-diagnoses',
  'sex-male-procedures',
] as const;
const PRINCIPAL_LISTS = ['unacceptable-principal-dx', 'unacceptable-principal-dx-requires-secondary-dx'] as const;
const LISTS: readonly string[] = [...AGE_LISTS, ...SEX_LISTS, ...PRINCIPAL_LISTS];

/**
 * Age ranges the MCE definitions fix for three lists (domain.md section 13: newborn = 0, pediatric = 0-17, adult =
 * 15-124), used when a loaded list carries none (the derived v37 table). The maternity range differs between
 * versions (12-55, 9-64), so it is never assumed.
 */
const DEFINED_AGES: Readonly<Record<string, readonly [number, number]>> = {
  'age-newborn': [0, 0],
  'age-pediatric': [0, 17],
  'age-adult': [15, 124],
};

/** Spec defaults (interface-spec.md "Limits"). */
export const DEFAULT_MIN_AGE = 0;
export const DEFAULT_MAX_AGE = 124;

/** The MCE fields of one code. */
export interface MceLimits {
  readonly minAge: number;
  readonly maxAge: number;
  readonly reqGender: 'male' | 'female' | undefined;
  readonly unacceptablePrincipalDx: boolean;
  readonly notes: readonly string[];
}

/**
 * The lists of the version(s) in force on a date, indexed by code type (`D` diagnoses, `P` procedures) and code: the
 * code itself is the key, so a lookup hashes the string CodeDetail already probed with (a `D` + code key was a new
 * string to build and hash per lookup).
 */
interface MceIndex {
  readonly lists: ReadonlyMap<string, MceList>;
  readonly byCode: Readonly<Record<MceMembership['codeType'], ReadonlyMap<string, readonly MceMembership[]>>>;
}

interface MceCache {
  /** Date → index key (`null`: no MCE list covers the date). */
  readonly keyOfDate: Map<string, string | null>;
  readonly indexes: Map<string, MceIndex>;
}

const MAX_REMEMBERED_DATES = 20_000;
const caches = new WeakMap<object, MceCache>();

/** The index of the MCE version(s) in force on `date`, or `undefined` when none is loaded for it. */
function indexOn(policies: Reference['policies'], date: string): MceIndex | undefined {
  let cache = caches.get(policies);
  if (!cache) {
    cache = { keyOfDate: new Map(), indexes: new Map() };
    caches.set(policies, cache);
  }
  let key = cache.keyOfDate.get(date);
  let lists: MceList[] | undefined;
  if (key === undefined) {
    lists = LISTS.map((id) => policies.mceList(id, date)).filter((l): l is MceList => l !== undefined);
    key =
      lists.length === 0
        ? null
        : lists.map((l) => `${l.list}@${l.version}${l.derived ? '~' : ''}@${l.validFrom}`).join('|');
    if (cache.keyOfDate.size >= MAX_REMEMBERED_DATES) {
      cache.keyOfDate.clear();
    }
    cache.keyOfDate.set(date, key);
  }
  if (key === null) {
    return undefined;
  }
  const known = cache.indexes.get(key);
  if (known) {
    return known;
  }
  lists ??= LISTS.map((id) => policies.mceList(id, date)).filter((l): l is MceList => l !== undefined);
  const byCode = {
    D: new Map<string, MceMembership[]>(),
    P: new Map<string, MceMembership[]>(),
    S: new Map<string, MceMembership[]>(),
  };
  for (const list of lists) {
    // mceList prefers the official release over the derived table; read the members of that same source.
    for (const m of policies.mceListMembers(list.list, date)) {
      if (m.derived !== list.derived) {
        continue;
      }
      const codes = byCode[m.codeType];
      const entry = codes.get(m.code);
      if (entry) {
        entry.push(m);
      } else {
        codes.set(m.code, [m]);
      }
    }
  }
  const index = { lists: new Map(lists.map((l) => [l.list, l])), byCode };
  cache.indexes.set(key, index);
  return index;
}

/** Limits for codes on no list, frozen and shared (`external`: external-cause codes, never principal). */
const limitsOf = (external: boolean, notes: readonly string[]): MceLimits =>
  Object.freeze({
    minAge: DEFAULT_MIN_AGE,
    maxAge: DEFAULT_MAX_AGE,
    reqGender: undefined,
    unacceptablePrincipalDx: external,
    notes: Object.freeze(notes),
  });
const NO_LIMITS = limitsOf(false, []);
const NO_LIMITS_EXTERNAL = limitsOf(true, []);

/** External-cause codes are never principal (ICD-10-CM V00-Y99; ICD-9-CM E000-E999). */
function isExternalCause(system: CodeSystem, code: string): boolean {
  return (system === 'ICD10CM' && /^[VWXY]/.test(code)) || (system === 'ICD9CM_DX' && code.startsWith('E'));
}

/**
 * A reader of MCE limits on one date: call it per code. MCE lists cover ICD-10-CM diagnoses and ICD-10-PCS
 * procedures; other code systems get the defaults (and the external-cause rule for ICD-9-CM E codes).
 * @param policies - the Reference port's policy lookups
 * @param date - the date of service
 */
export function mceLimitsOn(
  policies: Reference['policies'],
  date: string,
): (system: CodeSystem, code: string) => MceLimits {
  let index: MceIndex | undefined | null = null;
  let noMce: readonly [MceLimits, MceLimits] | undefined;
  return (system, code) => {
    const external = isExternalCause(system, code);
    if (system !== 'ICD10CM' && system !== 'ICD10PCS') {
      return external ? NO_LIMITS_EXTERNAL : NO_LIMITS;
    }
    if (index === null) {
      index = indexOn(policies, date);
    }
    if (!index) {
      if (!noMce) {
        const notes = [CODE_NOTES.noMce()];
        noMce = [limitsOf(false, notes), limitsOf(true, notes)];
      }
      return noMce[external ? 1 : 0];
    }
    const memberships = index.byCode[system === 'ICD10CM' ? 'D' : 'P'].get(code);
    if (!memberships) {
      return external ? NO_LIMITS_EXTERNAL : NO_LIMITS;
    }
    let minAge = DEFAULT_MIN_AGE;
    let maxAge = DEFAULT_MAX_AGE;
    let reqGender: MceLimits['reqGender'];
    let principal = external;
    const notes: string[] = [];
    for (const m of memberships) {
      const list = index.lists.get(m.list);
      if (!list || !list.active || !m.active || m.validFrom > date || (m.validTo !== null && m.validTo < date)) {
        continue;
      }
      switch (m.edit) {
        case 'age-conflict': {
          const defined = DEFINED_AGES[m.list];
          const low = m.ageMin ?? list.ageMin ?? defined?.[0];
          const high = m.ageMax ?? list.ageMax ?? defined?.[1];
          if (low === undefined || high === undefined) {
            notes.push(CODE_NOTES.mceNoAgeRange(m.version, m.list));
          } else {
            // A code on several age lists fits the ages all of them allow.
            minAge = Math.max(minAge, low);
            maxAge = Math.min(maxAge, high);
          }
          break;
        }
        case 'sex-conflict': {
          const sex = m.sex ?? list.sex;
          reqGender = sex === 'F' ? 'female' : sex === 'M' ? 'male' : reqGender;
          break;
        }
        case 'unacceptable-principal-dx':
          principal = true;
          break;
        default:
          break;
      }
    }
    return { minAge, maxAge, reqGender, unacceptablePrincipalDx: principal, notes };
  };
}
