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
