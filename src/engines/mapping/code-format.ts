// Code spelling for the mapping engine: normalising what a request carries and writing codes back in the form
// operations.md prescribes (dotted ICD-10-CM and ICD-9-CM diagnoses; undotted PCS and ICD-9 procedures, whose
// `…Alt` twin is dotted), and the shape checks this engine uses to word its messages.
import { CodeSystem, normaliseCode } from '../../schemas/code-systems.js';

// Spelling and normalising are shared with the codes engine (src/schemas/code-systems.ts).
export { alternateCode, displayCode, dottedCode, normaliseCode } from '../../schemas/code-systems.js';

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
