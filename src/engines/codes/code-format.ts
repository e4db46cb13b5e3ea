// Code spelling: reading any code string (case, dots, spaces) into its upper-case undotted form, the shapes of the
// six code systems, and writing a code back the way operations.md shows it (dotted ICD-10-CM and ICD-9-CM
// diagnoses, with ICD-9 E codes dotted after the 4th character; undotted PCS, ICD-9 procedures, CPT and HCPCS).
import { dotPosition, type CodeSystem } from '../../schemas/code-systems.js';

// Code spelling is shared with the mapping engine and the HTTP layer: it lives beside CodeSystem.
export { alternateCode, displayCode, dottedCode } from '../../schemas/code-systems.js';

/** A code string as read: its normalised form and where the caller put the dot. */
export interface ParsedCode {
  /** The input as given. */
  readonly input: string;
  /** Upper-case, without dots or whitespace (`E119`). */
  readonly code: string;
  /** Position of the dot in the trimmed input without whitespace; -1 when undotted. */
  readonly dot: number;
  /** Only letters and digits remain, and there was at most one dot. */
  readonly clean: boolean;
}

const CLEAN = /^[A-Z0-9]+$/;

/**
 * Reads a code string: trims it, drops whitespace and the dot, upper-cases it (` e11.9 ` → `E119`).
 * @param input - the code as a request or file carries it
 */
export function parseCode(input: string): ParsedCode {
  // Most strings arrive as claim files write them: upper-case, undotted, nothing to strip.
  if (CLEAN.test(input)) {
    return { input, code: input, dot: -1, clean: true };
  }
  const compact = input.replace(/\s/g, '');
  const dot = compact.indexOf('.');
  const code = (dot < 0 ? compact : compact.replace(/\./g, '')).toUpperCase();
  const clean = CLEAN.test(code) && (dot < 0 || compact.indexOf('.', dot + 1) < 0);
  return { input, code, dot, clean };
}

/**
 * Well-formed undotted shapes (domain.md section 1). ICD-10-PCS takes its 3-character table headers as well as
 * 7-character codes, ICD-10-CM its 3- to 7-character codes; ICD-9-CM headers have the shapes of codes.
 */
const SHAPES: Readonly<Record<CodeSystem, RegExp>> = {
  // The second character is a digit, except in the genetic-variant codes added in FY2025 (QA0).
  ICD10CM: /^[A-Z][0-9A-Z][0-9A-Z][0-9A-Z]{0,4}$/,
  ICD10PCS: /^[0-9BCDFGHX][0-9A-HJ-NP-Z]{2}(?:[0-9A-HJ-NP-Z]{4})?$/,
  ICD9CM_DX: /^(?:\d{3,5}|V\d{2,4}|E\d{3,4})$/,
  ICD9CM_PROC: /^\d{2,4}$/,
  CPT: /^(?:\d{5}|\d{4}[FTU])$/,
  HCPCS: /^[A-EGHJ-MP-V]\d{4}$/,
};

/** Systems in the order candidates are listed. */
const ALL_SYSTEMS: readonly CodeSystem[] = ['ICD10CM', 'ICD10PCS', 'ICD9CM_DX', 'ICD9CM_PROC', 'CPT', 'HCPCS'];

/**
 * Whether a parsed code has the shape of a code of `system`, its dot (if any) included: `00.10` fits ICD-9-CM
 * procedures only, `001.0` diagnoses only, `0010` both.
 */
export function fitsShape(system: CodeSystem, parsed: ParsedCode): boolean {
  if (!parsed.clean || !SHAPES[system].test(parsed.code)) {
    return false;
  }
  return parsed.dot < 0 || (parsed.dot === dotPosition(system, parsed.code) && parsed.dot < parsed.code.length);
}

/**
 * Every list shapeSystems can answer, by bit mask over ALL_SYSTEMS: frozen and shared, so a batch of 100,000 codes
 * does not allocate (and keep) 100,000 small arrays.
 */
const SHAPE_LISTS: readonly (readonly CodeSystem[])[] = Array.from({ length: 1 << ALL_SYSTEMS.length }, (_, mask) =>
  Object.freeze(ALL_SYSTEMS.filter((_s, i) => (mask & (1 << i)) !== 0)),
);

/** The systems whose shape a parsed code fits (the first step of detection; existence decides the rest). */
export function shapeSystems(parsed: ParsedCode): readonly CodeSystem[] {
  let mask = 0;
  if (parsed.clean) {
    for (let i = 0; i < ALL_SYSTEMS.length; i++) {
      if (fitsShape(ALL_SYSTEMS[i] as CodeSystem, parsed)) {
        mask |= 1 << i;
      }
    }
  }
  return SHAPE_LISTS[mask] as readonly CodeSystem[];
}
