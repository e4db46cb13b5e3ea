// `codeId`: a stable integer per (code system, code) that decodes back without the database. The code is read as a
// bijective base-36 numeral (0-9 → 1-10, A-Z → 11-36: no zero digit, so no two codes share a value and no padding is
// needed) and the system takes the low three bits. Codes of up to 5 characters (CPT, HCPCS, ICD-9-CM) stay within
// int32; 7-character ICD-10 codes need up to 40 bits, still exact in a JavaScript number.
import type { CodeSystem } from '../../schemas/code-systems.js';

const SYSTEM_BITS: Readonly<Record<CodeSystem, number>> = {
  ICD10CM: 1,
  ICD10PCS: 2,
  ICD9CM_DX: 3,
  ICD9CM_PROC: 4,
  HCPCS: 5,
  CPT: 6,
};
const SYSTEM_OF_BITS = new Map(Object.entries(SYSTEM_BITS).map(([system, bits]) => [bits, system as CodeSystem]));
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The `codeId` of a normalised code.
 * @throws RangeError when the code is empty, longer than 8 characters or has a character other than 0-9, A-Z
 */
export function codeIdOf(system: CodeSystem, code: string): number {
  if (code.length === 0 || code.length > 8) {
    throw new RangeError(`Expected "code" to have 1 to 8 characters, got ${JSON.stringify(code)}`);
  }
  let n = 0;
  for (const ch of code) {
    const digit = DIGITS.indexOf(ch);
    if (digit < 0) {
      throw new RangeError(`Expected "code" to hold only 0-9 and A-Z, got ${JSON.stringify(code)}`);
    }
    n = n * 36 + digit + 1;
  }
  return n * 8 + SYSTEM_BITS[system];
}

/** Decodes a `codeId`; `undefined` for a number no code has. */
export function codeFromId(id: number): { readonly system: CodeSystem; readonly code: string } | undefined {
  if (!Number.isSafeInteger(id) || id <= 0) {
    return undefined;
  }
  const system = SYSTEM_OF_BITS.get(id % 8);
  let n = Math.floor(id / 8);
  let code = '';
  while (n > 0) {
    const digit = (n - 1) % 36;
    code = (DIGITS[digit] ?? '') + code;
    n = (n - 1 - digit) / 36;
  }
  return system && code ? { system, code } : undefined;
}
