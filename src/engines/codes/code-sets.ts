// Code-set names (operations.md "Code sets and dates, everywhere"): how a request may spell one, what the wire calls
// each code system, and how messages name it. `ICD-9 CM` on the wire covers both ICD-9-CM diagnoses and procedures.
import type { CodeSystem } from '../../schemas/code-systems.js';
import type { CodeType } from '../../schemas/codes.js';

/** Spellings with case, spaces, hyphens and underscores removed → the systems each names. */
const BY_NAME: Readonly<Record<string, readonly CodeSystem[]>> = {
  icd10cm: ['ICD10CM'],
  icd10pcs: ['ICD10PCS'],
  icd9cm: ['ICD9CM_DX', 'ICD9CM_PROC'],
  icd9cmdx: ['ICD9CM_DX'],
  icd9cmproc: ['ICD9CM_PROC'],
  cpt: ['CPT'],
  hcpcs: ['HCPCS'],
};

/**
 * Reads a code-set name as a request spells it: any case, with or without spaces, hyphens or underscores
 * (`ICD-10 CM`, `icd10cm`, `ICD-9-CM`), or a stored system name (`ICD9CM_PROC`).
 * @param name - the code-set name
 * @returns the code systems it names (two for `ICD-9 CM`), or `undefined` for a name no code set has
 */
export function parseCodeSet(name: string): readonly CodeSystem[] | undefined {
  return BY_NAME[name.toLowerCase().replace(/[\s_-]/g, '')];
}

/** The wire name of a code system's code set. */
export function codeTypeOf(system: CodeSystem): CodeType {
  switch (system) {
    case 'ICD10CM':
      return 'ICD-10 CM';
    case 'ICD10PCS':
      return 'ICD-10 PCS';
    case 'ICD9CM_DX':
    case 'ICD9CM_PROC':
      return 'ICD-9 CM';
    case 'CPT':
      return 'CPT';
    case 'HCPCS':
      return 'HCPCS';
  }
}

/** A code system named for people, in messages ("ICD-9-CM procedure"). */
export function systemLabel(system: CodeSystem): string {
  switch (system) {
    case 'ICD10CM':
      return 'ICD-10-CM';
    case 'ICD10PCS':
      return 'ICD-10-PCS';
    case 'ICD9CM_DX':
      return 'ICD-9-CM diagnosis';
    case 'ICD9CM_PROC':
      return 'ICD-9-CM procedure';
    case 'CPT':
      return 'CPT';
    case 'HCPCS':
      return 'HCPCS Level II';
  }
}
