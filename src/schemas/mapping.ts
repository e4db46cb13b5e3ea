// Wire shapes of the mapping operations (interface-spec.md "Map item", "Proprietary map item", "Primary lookup";
// operations.md "Mapping"): the code-set names a request may carry, the items GemsMap and ProprietaryMap answer, the
// PrimaryLookup result, and the informational messages the engine attaches to a source code (ext). The engine in
// src/engines/mapping returns exactly these shapes; the HTTP operations wrap them with `request` and `responseStatus`.
import { z } from 'zod';

/** Code-set names on the wire (operations.md "Code sets and dates, everywhere"), in their canonical spelling. */
export const MapCodeType = z.enum(['ICD-10 CM', 'ICD-10 PCS', 'ICD-9 CM']).meta({ id: 'MapCodeType' });
export type MapCodeType = z.infer<typeof MapCodeType>;

/** A GEM flag as printed: 0 or 1 (approximate, no map, combination). */
const flag = z.int().min(0).max(1);
/** A GEM scenario or choice-list digit: 0 unless the row is part of a combination, else 1–9. */
const digit = z.int().min(0).max(9);

/** One row of a plain GEM map (interface-spec.md "Map item"): one item per GEM row, flags copied from the file. */
export const GemsMapItem = z
  .object({
    sourceCode: z
      .string()
      .describe('The requested code: dotted for ICD-10-CM and ICD-9-CM diagnoses, undotted otherwise.'),
    sourceCodeDesc: z.string().describe('Long title of the source code in the code set in force on the date.'),
    sourceCodeType: z.string().describe('Code set of the source code: `ICD-10 CM`, `ICD-10 PCS` or `ICD-9 CM`.'),
    code: z.string().describe('The mapped code; empty when the source is not mappable.'),
    codeDesc: z.string().describe('Long title of the mapped code.'),
    codeType: z.string().describe('Code set of the mapped code.'),
    isApproximate: flag.describe('1 when the GEM marks the pair approximate (flag digit 1).'),
    isCombination: flag.describe('1 when the source needs several target codes together (flag digit 3).'),
    isNotMappable: flag.describe('1 when the GEM has no plausible target (flag digit 2 or a NoDx/NoPCS/NoI9 target).'),
    scenario: digit.describe('Combination scenario, 1–9; 0 unless a combination (flag digit 4).'),
    choiceList: digit.describe('Choice list within the scenario, 1–9; 0 unless a combination (flag digit 5).'),
  })
  .meta({ id: 'GemsMapItem' });
export type GemsMapItem = z.infer<typeof GemsMapItem>;

/**
 * One row of the project's own map (interface-spec.md "Proprietary map item"). `logic` is an Int16 on the wire: the
 * HTTP operation marks `ProprietaryMapItem.shape.logic` as `short`.
 */
export const ProprietaryMapItem = z
  .object({
    sourceCode: z.string().describe('The requested code, dotted for ICD-10-CM and ICD-9-CM diagnoses.'),
    sourceCodeDesc: z.string().describe('Long title of the source code in the code set in force on the date.'),
    sourceCodeType: z.string().describe('Code set of the source code.'),
    sourceCodeAlt: z.string().describe('The source code in its other form (undotted when sourceCode is dotted).'),
    code: z.string().describe('The mapped code.'),
    codeAlt: z.string().describe('The mapped code in its other form (dotted for ICD-9-CM procedures).'),
    codeDesc: z.string().describe('Long title of the mapped code.'),
    codeType: z.string().describe('Code set of the mapped code.'),
    confidenceLvl: z.int().min(0).max(100).describe('0–100; the scale is documented in the README.'),
    logic: z
      .int()
      .min(0)
      .max(2)
      .describe(
        '0: the only target; 1: one of several alternatives, the coder picks one; 2: part of a combination, all required.',
      ),
  })
  .meta({ id: 'ProprietaryMapItem' });
export type ProprietaryMapItem = z.infer<typeof ProprietaryMapItem>;

/** Codes of the mapping messages: why a code was bridged, not mapped, or answered with nothing. */
export const MapMessageCode = z
  .enum([
    'GEM_NO_MAP',
    'GEM_BRIDGED',
    'GEM_NEW_CONCEPT',
    'GEM_NOT_IN_GEM',
    'GEM_HEADER',
    'GEM_WRONG_TYPE',
    'GEM_NOT_FOUND',
    'GEM_AMBIGUOUS',
    'LOOKUP_CARRIED_FORWARD',
    'LOOKUP_NONE_ON_DATE',
    'LOOKUP_NO_DATA',
  ])
  .meta({ id: 'MapMessageCode' });
export type MapMessageCode = z.infer<typeof MapMessageCode>;

/** An informational message about one source code (operations.md GemsMap, `messages` entry **(ext)**). */
export const MapMessage = z
  .object({
    sourceCode: z.string().describe('The source code the message is about, as in the result items.'),
    code: MapMessageCode.describe('What happened, as a stable code.'),
    message: z.string().describe('What happened, in words.'),
  })
  .meta({ id: 'MapMessage' });
export type MapMessage = z.infer<typeof MapMessage>;

/**
 * The PrimaryLookup `result` (interface-spec.md "Primary lookup"): the spec's names starting lower-case, as every
 * JSON name does (wire.md section 8: "PrimaryLookup gives `result.code`"; XML elements stay PascalCase).
 */
export const PrimaryLookupResult = z
  .object({
    code: z.string().describe('The ICD-9-CM code, dotted.'),
    codeAlt: z.string().describe('The ICD-9-CM code, undotted.'),
    longDescription: z.string().describe('ICD-9-CM v32 long title; empty for an unknown code.'),
    shortDescription: z.string().describe('ICD-9-CM v32 short title; empty for an unknown code.'),
    primaryLookup: z
      .array(z.string())
      .describe('Billable ICD-10-CM codes valid on targetDate, dotted, first scenario and choice list first.'),
  })
  .meta({ id: 'PrimaryLookupResult' });
export type PrimaryLookupResult = z.infer<typeof PrimaryLookupResult>;

/** `sourceCodeCsv`: one or more codes separated by commas, dotted or not. */
const sourceCodeCsv = z.string().min(1).describe('Comma-separated list of codes to map.');
/** `sourceCodeType`: parsed by the engine's `parseMapCodeType`; an unknown name is the operation's 400. */
const sourceCodeType = z
  .string()
  .optional()
  .describe('`ICD-10 CM` or `ICD-10 PCS` (any case, with or without the space or hyphen); default `ICD-10 CM`.');

// The request shapes carry no schema id: the HTTP operation names each (`.meta({ id: 'GemsMap' })`) when it
// declares it, and marks `logicLimit` as `short`, as its wire helpers live in src/http.

/** GemsMap request fields (interface-spec.md "Map ICD-10 codes to ICD-9 codes"). */
export const GemsMapRequest = z.object({ sourceCodeCsv, sourceCodeType });
export type GemsMapRequest = z.infer<typeof GemsMapRequest>;

/** ProprietaryMap request fields (interface-spec.md "Proprietary map"); `logicLimit` is an Int16 on the wire. */
export const ProprietaryMapRequest = z.object({
  sourceCodeCsv,
  sourceCodeType,
  logicLimit: z
    .int()
    .min(0)
    .max(2)
    .optional()
    .describe(
      'Omitted: all codes. 0: codes with one choice; 1: codes that require a choice; 2: codes that require all codes to be chosen.',
    ),
});
export type ProprietaryMapRequest = z.infer<typeof ProprietaryMapRequest>;

/**
 * PrimaryLookup request fields (interface-spec.md "Primary lookup"), starting lower-case as every name does (the
 * binding reads `Icd9Code` as well; a field error names `targetDate`, wire.md section 9).
 */
export const PrimaryLookupRequest = z.object({
  icd9Code: z.string().min(1).describe('The ICD-9-CM diagnosis code, dotted or not.'),
  targetDate: z.iso
    .datetime({ offset: true })
    .optional()
    .describe('Answer with the ICD-10-CM codes valid on this date; default today.'),
});
export type PrimaryLookupRequest = z.infer<typeof PrimaryLookupRequest>;
