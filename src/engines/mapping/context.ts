// What one batch call of the mapping engine reads: code titles (from the in-memory code tables, the Tabular List
// fallback remembered per connection) and GEM rows, with a per-call memo for GEM lookups that repeat within a call.
import type { Reference } from '../../reference/index.js';
import { CodeSystem } from '../../schemas/code-systems.js';
import type { GemRow } from '../../reference/queries/mapping.js';
import { AnswerMemory } from '../answer-memory.js';
import type { GemSide } from './code-types.js';

/** The parts of the Reference port the mapping engine reads. */
export type MappingReference = Pick<Reference, 'codes' | 'mapping' | 'tabular'>;

/** Lookups of one engine call, memoised for the call's lifetime. */
export interface MappingContext {
  readonly ref: MappingReference;
  /** The date every answer is as of (ISO `YYYY-MM-DD`). */
  readonly date: string;
  /** Long title of a normalised code; empty when no loaded source has it. */
  title(system: CodeSystem, code: string): string;
  /** GEM rows whose source is `code`, in file order (the newest GEM release: the GEMs end at FY2018). */
  gemRows(side: GemSide, code: string): readonly GemRow[];
  /** `gemRows`, memoised: for lookups that repeat within a call (a target read back through the other GEM). */
  gemRowsMemo(side: GemSide, code: string): readonly GemRow[];
}

// Titles come from the Reference's in-memory code tables (a map probe each). The Tabular List fallback for ICD-10-CM
// codes in no loaded order file is a few statement runs, so its answers outlive a call: they are remembered per
// reference connection (the database is read-only). The fallback reads every loaded release whatever the date, so
// its answers are not kept per date. Bounded: past MAX_REMEMBERED_TITLES the memory is dropped and refilled.
const MAX_REMEMBERED_TITLES = 200_000;
const rememberedTitles = new WeakMap<MappingReference['codes'], AnswerMemory<string>>();

/** The remembered Tabular List titles of a connection. */
function tabularTitles(ref: MappingReference): AnswerMemory<string> {
  let memory = rememberedTitles.get(ref.codes);
  if (memory === undefined) {
    memory = new AnswerMemory(MAX_REMEMBERED_TITLES);
    rememberedTitles.set(ref.codes, memory);
  }
  return memory;
}

/**
 * Starts the lookups of one engine call.
 * @param ref - the reference port
 * @param date - the answer date, `YYYY-MM-DD`
 */
export function createContext(ref: MappingReference, date: string): MappingContext {
  const titleMemory = tabularTitles(ref);
  const titles = titleMemory.answersFor('ICD10CM');
  const rows = new Map<string, readonly GemRow[]>();
  let tabularReleases: readonly string[] | undefined;

  // ICD-10 titles: the version in force on the date, else the newest version loaded, else (CM) the Tabular List of
  // any loaded release, which still names codes deleted before the oldest loaded order file.
  const icd10Title = (system: CodeSystem, code: string): string => {
    const version = ref.codes.onDate(system, code, date) ?? ref.codes.history(system, code).at(-1);
    if (version) {
      return version.longTitle ?? version.shortTitle ?? '';
    }
    if (system !== CodeSystem.ICD10CM) {
      return '';
    }
    let title = titles.get(code);
    if (title === undefined) {
      tabularReleases ??= ref.tabular.releases().map((r) => r.release);
      title = '';
      for (const release of tabularReleases) {
        const found = ref.tabular.diag(code, { release }) ?? ref.tabular.extendedCode(code, { release });
        if (found) {
          title = found.description;
          break;
        }
      }
      titleMemory.add(titles, code, title);
    }
    return title;
  };

  const readTitle = (system: CodeSystem, code: string): string => {
    switch (system) {
      case CodeSystem.ICD9CM_DX:
      case CodeSystem.ICD9CM_PROC: {
        const detail = ref.mapping.icd9Detail(system === CodeSystem.ICD9CM_DX ? 'dx' : 'proc', code);
        return detail?.longTitle ?? detail?.shortTitle ?? '';
      }
      case CodeSystem.ICD10CM:
      case CodeSystem.ICD10PCS:
        return icd10Title(system, code);
      case CodeSystem.HCPCS:
      case CodeSystem.CPT: {
        const version = ref.codes.onDate(system, code, date) ?? ref.codes.history(system, code).at(-1);
        return version?.longTitle ?? version?.shortTitle ?? '';
      }
    }
  };

  return {
    ref,
    date,
    title: readTitle,
    gemRows: (side, code) => ref.mapping.gemsBySource(side.kind, side.direction, code),
    gemRowsMemo(side, code) {
      const key = `${side.kind}\u0000${side.direction}\u0000${code}`;
      let found = rows.get(key);
      if (found === undefined) {
        found = ref.mapping.gemsBySource(side.kind, side.direction, code);
        rows.set(key, found);
      }
      return found;
    },
  };
}
