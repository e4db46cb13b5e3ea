// The code-set names a mapping request may name (operations.md "Code sets and dates, everywhere") and what each
// means for the GEMs: which file, which direction, which code systems sit on either side. How a name is spelled is
// the one rule of src/schemas/code-systems.ts; the GEMs know only the three ICD code sets.
import type { GemDirection, GemKind } from '../../reference/queries/mapping.js';
import { CodeSystem, parseCodeType } from '../../schemas/code-systems.js';
import { MapCodeType } from '../../schemas/mapping.js';

/**
 * Reads a code-set name as a request spells it: any case, with or without the space or hyphen (`ICD-10 CM`,
 * `ICD-10-CM`, `icd10cm`, `ICD 10 PCS`, `ICD-9 CM`).
 * @param name - the `sourceCodeType` value
 * @returns the canonical name, or `undefined` for a name the mapping operations do not know (`CPT`, `HCPCS` and
 *   unknown names: the HTTP layer's 400)
 */
export function parseMapCodeType(name: string): MapCodeType | undefined {
  const type = MapCodeType.safeParse(parseCodeType(name));
  return type.success ? type.data : undefined;
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
