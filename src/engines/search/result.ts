// The search result object of a list of codes (issue 13 §2): one assembly for LookupSearch, CodeInstruction and
// ConceptInformation. Concepts are facets over every code given; the page gets ids, titles, info nodes and the
// instructions of its ICD-10-CM codes.
import type { Reference } from '../../reference/index.js';
import { CodeSystem, dottedCode } from '../../schemas/code-systems.js';
import type { SearchParam, SearchResult } from '../../schemas/search.js';
import { codeIdOf } from '../codes/code-id.js';
import { facetsOf, idListsOf, infoNodesOf, type ConceptIdLists } from './concepts.js';
import { instructionsOf } from './instructions.js';

/** A code of a result, with its title and concept ids (concepts.ts). */
export interface ResultCode {
  readonly system: CodeSystem;
  readonly code: string;
  readonly title: string;
  readonly conceptIds: ArrayLike<number>;
}

/** What a result is made of. */
export interface ResultParts {
  readonly params: readonly SearchParam[];
  readonly messages: readonly string[];
  /** Codes found, in rank order, from which the page is cut (facets are counted over these, unless `facets` says). */
  readonly codes: readonly ResultCode[];
  /** The concept ids of every code of the result set, when `codes` holds only some of them (a search's page). */
  readonly facets?: ConceptIdLists | undefined;
  /** Codes found in all (may exceed `codes` when only the first were ranked). */
  readonly total: number;
  readonly startRow: number;
  readonly pageSize: number;
  readonly includeUnspecified: boolean;
  readonly date: string;
}

/** Assembles the search result object. */
export function searchResultOf(ref: Reference, p: ResultParts): SearchResult {
  const page = p.codes.slice(p.startRow - 1, p.startRow - 1 + p.pageSize);
  return {
    parameters: { param: [...p.params] },
    messages: p.messages.map((message) => ({ message })),
    results: {
      selectedDiagnosisTotal: { count: p.total },
      selectedDiagnosisPageset: {
        diagnosis: page.map((c) => ({ id: codeIdOf(c.system, c.code), code: dottedCode(c.system, c.code), codeAlt: c.code, desc: c.title })),
      },
      selectedConcepts: { conceptType: facetsOf(ref, p.facets ?? idListsOf(p.codes.map((c) => c.conceptIds)), p.includeUnspecified, p.date) },
      infoNodes: { info: infoNodesOf(ref, page.map((c) => c.conceptIds), p.date) },
      instructions: {
        type: 'instructions',
        instructionType: instructionsOf(ref, page.filter((c) => c.system === CodeSystem.ICD10CM).map((c) => c.code), p.date),
      },
    },
  };
}
