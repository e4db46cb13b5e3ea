// GemsMap (operations.md "Mapping"): one map item per GEM row, flags copied from the file, in request order and GEM
// file order; a code with no row answers one not-mappable item, and a message says why. ICD-10-CM and ICD-10-PCS read
// the backward GEMs (ICD-10 → ICD-9); ICD-9-CM reads the forward GEMs (ICD-9 → ICD-10, ext).
import { codeTypeOf, displayCode } from '../../schemas/code-systems.js';
import type { GemsMapItem, MapCodeType, MapMessage } from '../../schemas/mapping.js';
import { AnswerMemory } from '../answer-memory.js';
import { createContext, type MappingContext, type MappingReference } from './context.js';
import { resolveSource, type ResolvedSource } from './resolve.js';

/** The answer of GemsMap: the map items and the messages about their source codes. */
export interface GemsMapResult {
  /** Request order; the rows of one code in GEM file order. */
  readonly result: GemsMapItem[];
  /** Why a code was bridged or not mapped, in request order **(ext)**. */
  readonly messages: MapMessage[];
}

/** One code's answer, as remembered. */
interface CodeAnswer {
  readonly items: readonly GemsMapItem[];
  readonly messages: readonly MapMessage[];
}

// Answers are remembered per reference connection (the database is read-only, so an answer never changes) by code
// set, date and the code as given: claim files and callers repeat the same codes all day. Items are frozen and
// shared between answers. A code's answer is kept from its second request on: the first only marks it seen, so codes
// asked once (a sweep over a whole code set) cost the memory a mark each, not their answers (in-process, keeping
// every cold answer made a call ~25% slower). Marks count toward the bound like answers. Call key `type|date`.
const MAX_REMEMBERED = 100_000;
/** The mark of a code asked once. */
const SEEN_ONCE: CodeAnswer = Object.freeze({ items: [], messages: [] });
const remembered = new WeakMap<MappingReference['mapping'], AnswerMemory<CodeAnswer>>();

/**
 * Maps codes through the GEMs, one item per GEM row.
 * @param ref - the reference port
 * @param codes - the requested codes (any case, dotted or not), in request order
 * @param type - the code set of the requested codes (see `parseMapCodeType`)
 * @param date - the answer date, `YYYY-MM-DD`: descriptions are the code sets' titles in force then
 * @returns the items and messages of every code, in request order (items and messages are frozen, and shared
 *   with later answers for the same code)
 */
export function gemsMap(
  ref: MappingReference,
  codes: readonly string[],
  type: MapCodeType,
  date: string,
): GemsMapResult {
  let memory = remembered.get(ref.mapping);
  if (memory === undefined) {
    memory = new AnswerMemory(MAX_REMEMBERED);
    remembered.set(ref.mapping, memory);
  }
  const answers = memory.answersFor(`${type}|${date}`);
  // A code repeated within this call and first seen in it is computed once: its answer is kept here for the call.
  const thisCall = codes.length > 1 ? new Map<string, CodeAnswer>() : undefined;
  let ctx: MappingContext | undefined;
  const result: GemsMapItem[] = [];
  const messages: MapMessage[] = [];
  for (const raw of codes) {
    const known = answers.get(raw);
    let answer = known === SEEN_ONCE ? thisCall?.get(raw) : known;
    if (answer === undefined) {
      ctx ??= createContext(ref, date);
      const items: GemsMapItem[] = [];
      const notes: MapMessage[] = [];
      for (const source of resolveSource(ctx, raw, type)) {
        for (const item of itemsOf(ctx, source)) {
          items.push(Object.freeze(item));
        }
        for (const message of source.messages) {
          notes.push(Object.freeze(message));
        }
      }
      answer = { items, messages: notes };
      if (known === undefined) {
        memory.add(answers, raw, SEEN_ONCE);
        thisCall?.set(raw, answer);
      } else {
        answers.set(raw, answer);
      }
    }
    result.push(...answer.items);
    messages.push(...answer.messages);
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
  const codeType = codeTypeOf(targetSystem);
  // Members in the spec's order: writers that follow the object's own order then match the metadata page.
  const item = (code: string, codeDesc: string, flags: Pick<GemsMapItem, FlagField>): GemsMapItem => ({
    sourceCode: source.sourceCode,
    sourceCodeDesc: source.sourceCodeDesc,
    sourceCodeType: source.sourceCodeType,
    code,
    codeDesc,
    codeType,
    isApproximate: flags.isApproximate,
    isCombination: flags.isCombination,
    isNotMappable: flags.isNotMappable,
    scenario: flags.scenario,
    choiceList: flags.choiceList,
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
