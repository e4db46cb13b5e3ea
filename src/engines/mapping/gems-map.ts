// GemsMap (operations.md "Mapping"): one map item per GEM row, flags copied from the file, in request order and GEM
// file order; a code with no row answers one not-mappable item, and a message says why. ICD-10-CM and ICD-10-PCS read
// the backward GEMs (ICD-10 → ICD-9); ICD-9-CM reads the forward GEMs (ICD-9 → ICD-10, ext).
import type { GemsMapItem, MapCodeType, MapMessage } from '../../schemas/mapping.js';
import { displayCode } from './code-format.js';
import { codeTypeName } from './code-types.js';
import { createContext, type MappingContext, type MappingReference } from './context.js';
import { resolveSource, type ResolvedSource } from './resolve.js';

/** The answer of GemsMap: the map items and the messages about their source codes. */
export interface GemsMapResult {
  /** Request order; the rows of one code in GEM file order. */
  readonly result: GemsMapItem[];
  /** Why a code was bridged or not mapped, in request order **(ext)**. */
  readonly messages: MapMessage[];
}

/**
 * Maps codes through the GEMs, one item per GEM row.
 * @param ref - the reference port
 * @param codes - the requested codes (any case, dotted or not), in request order
 * @param type - the code set of the requested codes (see `parseMapCodeType`)
 * @param date - the answer date, `YYYY-MM-DD`: descriptions are the code sets' titles in force then
 * @returns the items and messages of every code, in request order
 */
export function gemsMap(
  ref: MappingReference,
  codes: readonly string[],
  type: MapCodeType,
  date: string,
): GemsMapResult {
  const ctx = createContext(ref, date);
  const result: GemsMapItem[] = [];
  const messages: MapMessage[] = [];
  for (const raw of codes) {
    for (const source of resolveSource(ctx, raw, type)) {
      result.push(...itemsOf(ctx, source));
      messages.push(...source.messages);
    }
  }
  return { result, messages };
}

/**
 * GemsMap for one code: a wrapper over {@link gemsMap}.
 * @param ref - the reference port
 * @param code - the requested code
 * @param type - its code set
 * @param date - the answer date, `YYYY-MM-DD`
 */
export function gemsMapCode(ref: MappingReference, code: string, type: MapCodeType, date: string): GemsMapResult {
  return gemsMap(ref, [code], type, date);
}

/** The items of one resolved code: its rows, or a single not-mappable item. */
function itemsOf(ctx: MappingContext, source: ResolvedSource): GemsMapItem[] {
  const targetSystem = source.side.targetSystem;
  const codeType = codeTypeName(targetSystem);
  // Members in the spec's order: writers that follow the object's own order then match the metadata page.
  const item = (code: string, codeDesc: string, flags: Pick<GemsMapItem, FlagField>): GemsMapItem => ({
    sourceCode: source.sourceCode,
    sourceCodeDesc: source.sourceCodeDesc,
    sourceCodeType: source.sourceCodeType,
    code,
    codeDesc,
    codeType,
    ...flags,
  });
  if (source.rows.length === 0) {
    return [item('', '', { isApproximate: 0, isCombination: 0, isNotMappable: 1, scenario: 0, choiceList: 0 })];
  }
  return source.rows.map(({ gem }) => {
    // A sentinel target (NoDx, NoPCS, NoI9) is no map whatever the flag says (domain.md section 5, "Our rule").
    const target = gem.isNotMappable ? null : gem.target;
    return item(
      target === null ? '' : displayCode(targetSystem, target),
      target === null ? '' : ctx.title(targetSystem, target),
      {
        isApproximate: gem.approximate,
        isCombination: gem.combination,
        isNotMappable: gem.isNotMappable ? 1 : 0,
        scenario: gem.scenario,
        choiceList: gem.choiceList,
      },
    );
  });
}

type FlagField = 'isApproximate' | 'isCombination' | 'isNotMappable' | 'scenario' | 'choiceList';
