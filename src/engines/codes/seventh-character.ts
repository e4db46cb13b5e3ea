// ICD-10-CM 7th characters and the placeholder X (domain.md section 2): which codes need a 7th character, which
// characters the Tabular List allows there (the `sevenChrDef` at the nearest ancestor), and how a code written
// without its placeholder is spelled (`W21.89A` → `W21.89XA`). The definitions of a tabular release are read once
// (a few hundred) and kept per release.
import type { Reference } from '../../reference/index.js';
import type { SevenChrDefinition } from '../../reference/queries/tabular.js';
import { firstInForce } from '../../schemas/validity.js';

/** The `sevenChrDef`s of one tabular release, by the undotted code where each stands. */
export interface SevenChrIndex {
  readonly release: string;
  readonly byOwner: ReadonlyMap<string, SevenChrDefinition>;
}

const indexes = new WeakMap<object, Map<string, SevenChrIndex | null>>();

/**
 * The `sevenChrDef`s of the tabular release in force on `date` (the oldest loaded one for earlier dates).
 * @returns `undefined` when no tabular release is loaded
 */
export function sevenChrIndexOn(tabular: Reference['tabular'], date: string): SevenChrIndex | undefined {
  const releases = tabular.releases();
  const rel = firstInForce(releases, date) ?? releases.at(-1);
  if (!rel) {
    return undefined;
  }
  let byRelease = indexes.get(tabular);
  if (!byRelease) {
    byRelease = new Map();
    indexes.set(tabular, byRelease);
  }
  let index = byRelease.get(rel.release);
  if (index === undefined) {
    const all = tabular.sevenChrDefinitions({ release: rel.release });
    index = all
      ? {
          release: all.release,
          byOwner: new Map(all.definitions.filter((d) => d.level === 'diag').map((d) => [d.owner, d])),
        }
      : null;
    byRelease.set(rel.release, index);
  }
  return index ?? undefined;
}

/**
 * The `sevenChrDef` in force for a code: at the code itself or its nearest ancestor (ancestors are prefixes).
 * @param code - undotted ICD-10-CM code
 */
export function sevenChrDefOf(index: SevenChrIndex, code: string): SevenChrDefinition | undefined {
  for (let len = Math.min(code.length, 6); len >= 3; len--) {
    const def = index.byOwner.get(code.slice(0, len));
    if (def) {
      return def;
    }
  }
  return undefined;
}

/** The 6-character stem a 7th character follows: the code padded with the placeholder X (`W2189` → `W2189X`). */
export function sevenChrStem(code: string): string {
  return code.padEnd(6, 'X');
}

/**
 * Whether a header code is a leaf waiting for its 7th character: every billable code under it is 7 characters
 * long and continues its X-padded stem (`S72.001` → `S72.001A`, `W21.89` → `W21.89XA`).
 * @param code - undotted header code
 * @param children - billable codes under it (the first few suffice)
 */
export function needsSeventh(code: string, children: readonly string[]): boolean {
  if (code.length >= 7 || children.length === 0) {
    return false;
  }
  const stem = sevenChrStem(code);
  return children.every((c) => c.length === 7 && c.startsWith(stem));
}

/**
 * The spelling with the placeholder X restored: `W2189A` → `W2189XA`, `T07A` → `T07XXXA`; `undefined` when the code
 * is too long to be missing one or too short to carry a 7th character.
 */
export function withPlaceholder(code: string): string | undefined {
  if (code.length < 4 || code.length > 6) {
    return undefined;
  }
  return `${sevenChrStem(code.slice(0, -1))}${code.slice(-1)}`;
}

/** `A (initial encounter), D (subsequent encounter) and S (sequela)`. */
export function describeValues(def: SevenChrDefinition): string {
  const parts = def.values.map((v) => `${v.char} (${v.description})`);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1) ?? ''}`;
}
