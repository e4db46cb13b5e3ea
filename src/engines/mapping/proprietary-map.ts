// ProprietaryMap (operations.md "ProprietaryMap"): the project's own map over both GEM directions. Per source code:
// `logic` says how the targets combine (0 the only one, 1 pick one of several, 2 all of a combination required),
// `confidenceLvl` grades each target (confidence.ts), rows best first, optionally limited to one `logic`.
import { alternateCode, codeTypeOf, displayCode } from '../../schemas/code-systems.js';
import type { MapCodeType, MapMessage, ProprietaryMapItem } from '../../schemas/mapping.js';
import { oppositeSide } from './code-types.js';
import { confidenceOf } from './confidence.js';
import { createContext, type MappingContext, type MappingReference } from './context.js';
import { resolveSource, type ResolvedRow, type ResolvedSource } from './resolve.js';

/** `logic` values. */
export type MapLogic = 0 | 1 | 2;

/** The answer of ProprietaryMap. */
export interface ProprietaryMapResult {
  /** Request order; the rows of one code by `confidenceLvl`, best first (then GEM file order). */
  readonly result: ProprietaryMapItem[];
  /** Why a code was bridged or has no rows, in request order **(ext)**. */
  readonly messages: MapMessage[];
}

/**
 * Maps codes through the GEMs with logic and confidence.
 * @param ref - the reference port
 * @param codes - the requested codes, in request order
 * @param type - their code set
 * @param logicLimit - keep only rows with this `logic`; `undefined` keeps all
 * @param date - the answer date, `YYYY-MM-DD`
 * @returns the rows and messages; a code with no mappable target has no rows, and a message says why
 */
export function proprietaryMap(
  ref: MappingReference,
  codes: readonly string[],
  type: MapCodeType,
  logicLimit: MapLogic | undefined,
  date: string,
): ProprietaryMapResult {
  const ctx = createContext(ref, date);
  const result: ProprietaryMapItem[] = [];
  const messages: MapMessage[] = [];
  for (const raw of codes) {
    for (const source of resolveSource(ctx, raw, type)) {
      const items = itemsOf(ctx, source);
      result.push(...(logicLimit === undefined ? items : items.filter((i) => i.logic === logicLimit)));
      messages.push(...source.messages);
    }
  }
  return { result, messages };
}

/**
 * ProprietaryMap for one code: a wrapper over {@link proprietaryMap}.
 * @param ref - the reference port
 * @param code - the requested code
 * @param type - its code set
 * @param logicLimit - keep only rows with this `logic`
 * @param date - the answer date, `YYYY-MM-DD`
 */
export function proprietaryMapCode(
  ref: MappingReference,
  code: string,
  type: MapCodeType,
  logicLimit: MapLogic | undefined,
  date: string,
): ProprietaryMapResult {
  return proprietaryMap(ref, [code], type, logicLimit, date);
}

/** The rows of one resolved code, best first. */
function itemsOf(ctx: MappingContext, source: ResolvedSource): ProprietaryMapItem[] {
  const side = source.side;
  const mappable = source.rows.filter(
    (r): r is ResolvedRow & { gem: { target: string } } => !r.gem.isNotMappable && r.gem.target !== null,
  );
  if (mappable.length === 0) {
    return [];
  }

  // Step 1: the alternatives around each row. Non-combination targets of the code are alternatives to each other
  // (and to any combination scenario); a combination row competes with the rows of its scenario's choice list and
  // with the other scenarios. Keys carry
  // the GEM source: a bridge may reach several, each with its own scenario numbers.
  const plainTargets = new Set(mappable.filter((r) => r.gem.combination === 0).map((r) => r.gem.target));
  const choiceLists = new Map<string, Set<string>>();
  const scenarios = new Map<string, Set<number>>();
  for (const { gem } of mappable) {
    if (gem.combination === 1) {
      const key = `${gem.source}\u0000${gem.scenario}\u0000${gem.choiceList}`;
      choiceLists.set(key, (choiceLists.get(key) ?? new Set()).add(gem.target));
      scenarios.set(gem.source, (scenarios.get(gem.source) ?? new Set()).add(gem.scenario));
    }
  }

  let combinationScenarios = 0;
  for (const set of scenarios.values()) {
    combinationScenarios += set.size;
  }

  // Step 2: one item per row, graded.
  const back = oppositeSide(side);
  const fanOut = source.gemSources > 1;
  const best = new Map<string, ProprietaryMapItem>();
  for (const { gem, hops } of mappable) {
    let logic: MapLogic;
    let alternatives: number;
    if (gem.combination === 0) {
      // A few codes have a plain row beside combination scenarios (A18.01): each scenario is one more alternative.
      alternatives = plainTargets.size - 1 + combinationScenarios;
      logic = alternatives > 0 ? 1 : 0;
    } else {
      const list = choiceLists.get(`${gem.source}\u0000${gem.scenario}\u0000${gem.choiceList}`)?.size ?? 1;
      logic = list > 1 ? 1 : 2;
      alternatives = list - 1 + (scenarios.get(gem.source)?.size ?? 1) - 1;
    }
    const bidirectional = ctx.gemRowsMemo(back, gem.target).some((r) => r.target === gem.source);
    const confidenceLvl = confidenceOf({
      approximate: gem.approximate === 1,
      bidirectional,
      alternatives,
      hops,
      fanOut: fanOut && hops > 0,
    });
    const item: ProprietaryMapItem = {
      sourceCode: source.sourceCode,
      sourceCodeDesc: source.sourceCodeDesc,
      sourceCodeType: source.sourceCodeType,
      sourceCodeAlt: alternateCode(side.sourceSystem, source.code),
      code: displayCode(side.targetSystem, gem.target),
      codeAlt: alternateCode(side.targetSystem, gem.target),
      codeDesc: ctx.title(side.targetSystem, gem.target),
      codeType: codeTypeOf(side.targetSystem),
      confidenceLvl,
      logic,
    };
    // The same target reached twice with the same logic (two scenarios, two bridged codes) is one row: the better.
    const key = `${gem.target}\u0000${logic}`;
    const seen = best.get(key);
    if (!seen || seen.confidenceLvl < confidenceLvl) {
      best.set(key, item);
    }
  }
  // Map keeps first-insertion order, so equal confidence stays in GEM file order (Array.prototype.sort is stable).
  return [...best.values()].sort((a, b) => b.confidenceLvl - a.confidenceLvl);
}
