// The search result object (interface-spec.md "Search result"; issue 13 §2): what LookupSearch, CodeInstruction and
// ConceptInformation answer. The item schemas carry the ids wire.md §11 fixes (they name the XML item elements).
import { z } from 'zod';

export const SearchParam = z
  .object({
    type: z.string().describe('`word`, `code` or `concept`.'),
    value: z.string(),
    hasInfo: z.boolean().describe('An info node exists for it.'),
    isAlias: z.boolean().describe('Matched through a synonym or abbreviation (or a spelling correction).'),
    isDIndex: z.boolean().describe('Matched through the Alphabetic Index.'),
    position: z.int().describe('0-based position of the word in the search.'),
  })
  .meta({ id: 'SearchParam' });
export type SearchParam = z.infer<typeof SearchParam>;

export const SearchMessage = z.object({ message: z.string() }).meta({ id: 'SearchMessage' });

export const SearchDiagnosis = z
  .object({
    id: z.number().describe('Stable id of the code (see CodeDetail.codeId).'),
    code: z.string().describe('As the code set prints it: dotted for ICD-10-CM and ICD-9-CM diagnoses.'),
    codeAlt: z.string().describe('The code undotted, as claim files carry it.'),
    desc: z.string(),
  })
  .meta({ id: 'SearchDiagnosis' });
export type SearchDiagnosis = z.infer<typeof SearchDiagnosis>;

export const Concept = z
  .object({ id: z.int(), desc: z.string(), count: z.int(), hasInfo: z.boolean() })
  .meta({ id: 'Concept' });
export type Concept = z.infer<typeof Concept>;

export const ConceptType = z
  .object({
    type: z.string(),
    typeID: z.int(),
    count: z.int().describe('Result codes carrying a concept of this type.'),
    concepts: z.object({ concept: z.array(Concept) }),
  })
  .meta({ id: 'ConceptType' });
export type ConceptType = z.infer<typeof ConceptType>;

export const InfoNode = z
  .object({ typeID: z.int(), type: z.string(), label: z.string(), title: z.string(), description: z.string() })
  .meta({ id: 'InfoNode' });
export type InfoNode = z.infer<typeof InfoNode>;

export const Instruction = z
  .object({
    instruction: z.string(),
    codeRanges: z.string().describe('Codes and ranges the note names, comma-separated (`E08-E13, Z79.4`).'),
  })
  .meta({ id: 'Instruction' });
export type Instruction = z.infer<typeof Instruction>;

export const InstructionType = z
  .object({ type: z.string(), instruction: z.array(Instruction) })
  .meta({ id: 'InstructionType' });
export type InstructionType = z.infer<typeof InstructionType>;

/** The search result object. */
export const SearchResult = z
  .object({
    parameters: z.object({ param: z.array(SearchParam) }),
    messages: z.array(SearchMessage),
    results: z.object({
      selectedDiagnosisTotal: z.object({ count: z.int().describe('Codes found, before paging.') }),
      selectedDiagnosisPageset: z.object({ diagnosis: z.array(SearchDiagnosis) }),
      selectedConcepts: z.object({ conceptType: z.array(ConceptType) }),
      infoNodes: z.object({ info: z.array(InfoNode) }),
      instructions: z.object({ type: z.string(), instructionType: z.array(InstructionType) }),
    }),
  })
  .meta({ id: 'SearchResult' });
export type SearchResult = z.infer<typeof SearchResult>;

/** The LookupSearch request (operations.md "Search"): the wire DTO, and what the engine reads. */
export const LookupSearch = z
  .object({
    search: z.string().trim().min(1).max(500).describe('The words (or a code) to search for; at most 500 characters.'),
    codeSet: z.string().optional().describe('`ICD-10 CM` (default), `ICD-10 PCS` or `ICD-9 CM`.'),
    includeIndex: z.boolean().optional().describe('Also search the Alphabetic Index (and the Neoplasm and Drug tables).'),
    conceptIdList: z.array(z.int32()).optional().describe('Keep only codes carrying every one of these concepts.'),
    dateOfService: z.iso.date().optional().describe('Codes valid on this date; default today.'),
    startRow: z.int32().min(1).default(1).describe('1-based first row of the page.'),
    endRow: z.int32().min(1).max(200).default(10).describe('Page size.'),
    callerUid: z.string().optional().describe('Echoed back unchanged.'),
    includeUnspecifiedConcepts: z
      .boolean()
      .optional()
      .describe('false: codes saying "unspecified" rank last and "unspecified" concepts are hidden; default true.'),
  })
  .meta({ id: 'LookupSearch' });
export type LookupSearch = z.infer<typeof LookupSearch>;

/** What lookupSearch reads: the request, with the date of service settled (the caller supplies today). */
export type SearchRequest = Omit<Partial<LookupSearch>, 'search' | 'dateOfService'> & {
  readonly search: string;
  readonly dateOfService: string;
};

/** A search suggestion: a concept's name and id (ConceptInformation takes the id). */
export const SuggestionItem = z.object({ concept: z.string(), conceptBaseId: z.int() }).meta({ id: 'SuggestionItem' });
export type SuggestionItem = z.infer<typeof SuggestionItem>;
