// Code-system detection for callers that do not name the code set: the shape of the string first, then existence in
// the reference data. A string that exists in two code sets (`0010`: ICD-9-CM diagnosis 001.0 and procedure 00.10;
// `A0100`: ICD-10-CM A01.00 and HCPCS A0100) is reported as ambiguous with both, never guessed.
import { parseCode, shapeSystems, type CodeSystem } from '../../schemas/code-systems.js';
import { lookUp, settleSystems, type CodesReference } from './lookup.js';

/** How a string was placed. */
export interface CodeSystemDetection {
  readonly input: string;
  /** Upper-case, undotted. */
  readonly code: string;
  /**
   * `detected`: one code set has it; `ambiguous`: several have it (`systems` lists them); `not-found`: well-formed
   * for `systems` but in none of them; `malformed`: the shape of no code set.
   */
  readonly status: 'detected' | 'ambiguous' | 'not-found' | 'malformed';
  readonly systems: readonly CodeSystem[];
}

/**
 * Detects the code system of each string, in input order.
 * @param ref - the Reference port
 * @param inputs - code strings, dotted or not, any case
 * @param date - date of service (CPT without descriptors, and HCPCS after the HCPCS file's quarter, are looked up in
 *   the OPPS addendum in force then)
 */
export function detectCodeSystems(ref: CodesReference, inputs: readonly string[], date: string): CodeSystemDetection[] {
  const parsed = inputs.map(parseCode);
  const candidates = parsed.map(shapeSystems);
  const systems = new Set(candidates.flat());
  const addendumCodes = parsed
    .filter((_p, i) => candidates[i]?.some((s) => s === 'CPT' || s === 'HCPCS'))
    .map((p) => p.code);
  const lookups = lookUp(ref, date, systems, addendumCodes);
  return parsed.map((p, i) => {
    const shapes = candidates[i] ?? [];
    if (shapes.length === 0) {
      return { input: p.input, code: p.code, status: 'malformed', systems: [] };
    }
    const { systems, existing } = settleSystems(p.code, shapes, lookups);
    const status = !existing ? 'not-found' : systems.length === 1 ? 'detected' : 'ambiguous';
    return { input: p.input, code: p.code, status, systems };
  });
}

/** One-string form of {@link detectCodeSystems}. */
export function detectCodeSystem(ref: CodesReference, input: string, date: string): CodeSystemDetection {
  return detectCodeSystems(ref, [input], date)[0] as CodeSystemDetection;
}
