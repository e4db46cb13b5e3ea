// The code-set names a mapping request may name (operations.md "Code sets and dates, everywhere") and what each
// means for the GEMs: which file, which direction, which code systems sit on either side.
import type { GemDirection, GemKind } from '../../reference/queries/mapping.js';
import { CodeSystem } from '../../schemas/code-systems.js';
import type { MapCodeType } from '../../schemas/mapping.js';

const NAMES: Record<string, MapCodeType> = {
  icd10cm: 'ICD-10 CM',
  icd10pcs: 'ICD-10 PCS',
  icd9cm: 'ICD-9 CM',
};

/**
 * Reads a code-set name as a request spells it: any case, with or without the space or hyphen (`ICD-10 CM`,
 * `ICD-10-CM`, `icd10cm`, `ICD 10 PCS`, `ICD-9 CM`).
 * @param name - the `sourceCodeType` value
 * @returns the canonical name, or `undefined` for a name the mapping operations do not know (the HTTP layer's 400)
 */
export function parseMapCodeType(name: string): MapCodeType | undefined {
  return NAMES[name.trim().toLowerCase().replace(/[\s-]/g, '')];
}

/** One GEM file read in one direction: the source and target code systems of its rows. */
export interface GemSide {
  readonly kind: GemKind;
  readonly direction: GemDirection;
  readonly sourceSystem: CodeSystem;
  readonly targetSystem: CodeSystem;
}

/** The four GEM files as the engine reads them. */
export const GEM_SIDES = {
  dxBackward: {
    kind: 'dx',
    direction: 'backward',
    sourceSystem: CodeSystem.ICD10CM,
    targetSystem: CodeSystem.ICD9CM_DX,
  },
  pcsBackward: {
    kind: 'pcs',
    direction: 'backward',
    sourceSystem: CodeSystem.ICD10PCS,
    targetSystem: CodeSystem.ICD9CM_PROC,
  },
  dxForward: { kind: 'dx', direction: 'forward', sourceSystem: CodeSystem.ICD9CM_DX, targetSystem: CodeSystem.ICD10CM },
  pcsForward: {
    kind: 'pcs',
    direction: 'forward',
    sourceSystem: CodeSystem.ICD9CM_PROC,
    targetSystem: CodeSystem.ICD10PCS,
  },
} as const satisfies Record<string, GemSide>;

/** The same GEM kind read the other way (for the bidirectional-agreement check). */
export function oppositeSide(side: GemSide): GemSide {
  if (side.kind === 'dx') {
    return side.direction === 'backward' ? GEM_SIDES.dxForward : GEM_SIDES.dxBackward;
  }
  return side.direction === 'backward' ? GEM_SIDES.pcsForward : GEM_SIDES.pcsBackward;
}

/** The code-set name of a code system as the wire writes it. */
export function codeTypeName(system: CodeSystem): string {
  switch (system) {
    case CodeSystem.ICD10CM:
      return 'ICD-10 CM';
    case CodeSystem.ICD10PCS:
      return 'ICD-10 PCS';
    case CodeSystem.ICD9CM_DX:
    case CodeSystem.ICD9CM_PROC:
      return 'ICD-9 CM';
    case CodeSystem.HCPCS:
      return 'HCPCS';
    case CodeSystem.CPT:
      return 'CPT';
  }
}

/** A code system named for people, in messages ("an ICD-10-PCS code"). */
export function systemLabel(system: CodeSystem): string {
  switch (system) {
    case CodeSystem.ICD10CM:
      return 'ICD-10-CM';
    case CodeSystem.ICD10PCS:
      return 'ICD-10-PCS';
    case CodeSystem.ICD9CM_DX:
      return 'ICD-9-CM diagnosis';
    case CodeSystem.ICD9CM_PROC:
      return 'ICD-9-CM procedure';
    case CodeSystem.HCPCS:
      return 'HCPCS Level II';
    case CodeSystem.CPT:
      return 'CPT';
  }
}

/** Code sets named with their article, for messages: `an ICD-10-PCS`, `an ICD-9-CM procedure or a CPT`. */
export function codeSetsPhrase(systems: readonly CodeSystem[]): string {
  return systems.map((s) => `${/^[AEIOU]/.test(systemLabel(s)) ? 'an' : 'a'} ${systemLabel(s)}`).join(' or ');
}
