// Code spelling for the mapping engine: normalising what a request carries and writing codes back in the form
// operations.md prescribes (dotted ICD-10-CM and ICD-9-CM diagnoses; undotted PCS and ICD-9 procedures, whose
// `…Alt` twin is dotted). Local to the mapping engine; src/engines/codes has the general normaliser.
import { CodeSystem } from '../../schemas/code-systems.js';

/** Upper-cases a code and strips dots and whitespace: ` e11.9 ` → `E119`. */
export function normaliseCode(code: string): string {
  return code.replace(/[.\s]/g, '').toUpperCase();
}

/** Inserts a dot after `at` characters when the code is longer than that. */
const dotAfter = (code: string, at: number): string =>
  code.length > at ? `${code.slice(0, at)}.${code.slice(at)}` : code;

/** The dotted spelling of a normalised code of `system`: `E119` → `E11.9`, `25000` → `250.00`, `E8490` → `E849.0`, `0001` → `00.01`. */
export function dottedCode(system: CodeSystem, code: string): string {
  switch (system) {
    case CodeSystem.ICD10CM:
      return dotAfter(code, 3);
    case CodeSystem.ICD9CM_DX:
      return dotAfter(code, code.startsWith('E') ? 4 : 3);
    case CodeSystem.ICD9CM_PROC:
      return dotAfter(code, 2);
    case CodeSystem.ICD10PCS:
    case CodeSystem.HCPCS:
    case CodeSystem.CPT:
      return code;
  }
}

/** Systems shown dotted on the wire (operations.md); the others are shown undotted with a dotted `…Alt`. */
const SHOWN_DOTTED: ReadonlySet<CodeSystem> = new Set([CodeSystem.ICD10CM, CodeSystem.ICD9CM_DX]);

/** The code as `code`/`sourceCode` show it. */
export function displayCode(system: CodeSystem, code: string): string {
  return SHOWN_DOTTED.has(system) ? dottedCode(system, code) : code;
}

/** The other form, for `codeAlt`/`sourceCodeAlt` (the same text when the system has a single form, as PCS). */
export function alternateCode(system: CodeSystem, code: string): string {
  return SHOWN_DOTTED.has(system) ? code : dottedCode(system, code);
}

/** Well-formed shapes, used only to word messages (lookups decide what a code is). */
const SHAPES: Record<CodeSystem, RegExp> = {
  // Letter, then alphanumerics: the second character is a digit except in FY2026's QA0 category.
  [CodeSystem.ICD10CM]: /^[A-Z][0-9A-Z][0-9A-Z]([0-9A-Z]{1,4})?$/,
  [CodeSystem.ICD10PCS]: /^[0-9A-HJ-NP-Z]{7}$/,
  [CodeSystem.ICD9CM_DX]: /^(\d{3,5}|V\d{2,4}|E\d{3,4})$/,
  [CodeSystem.ICD9CM_PROC]: /^\d{3,4}$/,
  [CodeSystem.HCPCS]: /^[A-Z]\d{4}$/,
  [CodeSystem.CPT]: /^\d{4}[0-9FTU]$/,
};

/** Whether a normalised code has the shape of a code of `system`. */
export function hasShapeOf(system: CodeSystem, code: string): boolean {
  return SHAPES[system].test(code);
}

/**
 * Which ICD-9-CM kinds a request's spelling allows: the dot settles it (`00.10` is a procedure, `001.0` a
 * diagnosis); undotted digits can be either (`0010`, `311`); V and E codes and five digits are diagnoses.
 * @param raw - the code as requested (trimmed)
 */
export function icd9KindsOf(raw: string): readonly ('dx' | 'pcs')[] {
  const code = normaliseCode(raw);
  const dot = raw.replace(/\s/g, '').indexOf('.');
  if (dot === 2 && /^\d+$/.test(code)) {
    return ['pcs'];
  }
  if (dot >= 3 || /^[VE]/.test(code) || code.length === 5) {
    return ['dx'];
  }
  return ['dx', 'pcs'];
}
