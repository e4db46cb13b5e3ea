// Code systems as stored in `code.system` and `code_release.system`. Codes themselves are stored upper-case and
// undotted (domain.md section 1, "Our rule").

export const CodeSystem = {
  ICD10CM: 'ICD10CM',
  ICD10PCS: 'ICD10PCS',
  ICD9CM_DX: 'ICD9CM_DX',
  ICD9CM_PROC: 'ICD9CM_PROC',
  HCPCS: 'HCPCS',
  CPT: 'CPT',
} as const;
export type CodeSystem = (typeof CodeSystem)[keyof typeof CodeSystem];

/** Upper-cases a code and strips dots and spaces: ` e11.9 ` → `E119`. */
export function normaliseCode(code: string): string {
  return code.replace(/[.\s]/g, '').toUpperCase();
}

/**
 * Where the dot goes in a normalised code of `system` (operations.md): after character 3 for ICD-10-CM and ICD-9-CM
 * diagnoses (after 4 for ICD-9 `E` codes), after 2 for ICD-9-CM procedures; PCS, CPT and HCPCS have none.
 */
export function dotPosition(system: CodeSystem, code: string): number | undefined {
  switch (system) {
    case CodeSystem.ICD10CM:
      return 3;
    case CodeSystem.ICD9CM_DX:
      return code.startsWith('E') ? 4 : 3;
    case CodeSystem.ICD9CM_PROC:
      return 2;
    case CodeSystem.ICD10PCS:
    case CodeSystem.CPT:
    case CodeSystem.HCPCS:
      return undefined;
  }
}

/** The dotted spelling of a normalised code: `E119` → `E11.9`, `25000` → `250.00`, `E8490` → `E849.0`, `0001` → `00.01`. */
export function dottedCode(system: CodeSystem, code: string): string {
  const at = dotPosition(system, code);
  return at !== undefined && code.length > at ? `${code.slice(0, at)}.${code.slice(at)}` : code;
}

/** The code as `code`/`sourceCode` show it: dotted for ICD-10-CM and ICD-9-CM diagnoses, undotted otherwise. */
export function displayCode(system: CodeSystem, code: string): string {
  return system === CodeSystem.ICD10CM || system === CodeSystem.ICD9CM_DX ? dottedCode(system, code) : code;
}

/** The other form, for `codeAlt`: undotted where `code` is dotted, dotted ICD-9-CM procedures, else the same text. */
export function alternateCode(system: CodeSystem, code: string): string {
  return system === CodeSystem.ICD10CM || system === CodeSystem.ICD9CM_DX ? code : dottedCode(system, code);
}
