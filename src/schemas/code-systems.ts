// The six code systems and every rule about how their codes are spelled, in one place for every engine and the
// reference queries: the stored system names, reading a code string (normalising, the caller's dot), the shape of
// each system's codes (domain.md section 1), the dotted and display forms (operations.md), the names a request may
// give a code set, and how messages name a system. Codes are stored upper-case and undotted (domain.md, "Our rule").
import type { CodeType } from './codes.js';

export const CodeSystem = {
  ICD10CM: 'ICD10CM',
  ICD10PCS: 'ICD10PCS',
  ICD9CM_DX: 'ICD9CM_DX',
  ICD9CM_PROC: 'ICD9CM_PROC',
  HCPCS: 'HCPCS',
  CPT: 'CPT',
} as const;
export type CodeSystem = (typeof CodeSystem)[keyof typeof CodeSystem];

/** Every code system, in the order detection lists candidates. */
/** The first day ICD-10 codes are valid, and the day after ICD-9-CM ended for services (domain.md section 1). */
export const ICD10_START = '2015-10-01';

export const CODE_SYSTEMS: readonly CodeSystem[] = ['ICD10CM', 'ICD10PCS', 'ICD9CM_DX', 'ICD9CM_PROC', 'CPT', 'HCPCS'];

// ── Reading a code string ────────────────────────────────────────────────────────────────────────────────────────

/** Upper-cases a code and strips dots and spaces: ` e11.9 ` → `E119`. */
export function normaliseCode(code: string): string {
  // Most codes arrive upper-case and undotted: those are answered as they are, without the regex and the copy.
  for (let i = 0; i < code.length; i++) {
    const c = code.charCodeAt(i);
    if (c === 46 || c <= 32 || (c >= 97 && c <= 122) || c > 126) {
      return code.replace(/[.\s]/g, '').toUpperCase();
    }
  }
  return code;
}

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
 * @returns the normalised code, with the caller's dot position and whether anything but one dot was stripped
 */
export function parseCode(input: string): ParsedCode {
  // Most strings arrive as claim files write them: upper-case, undotted, nothing to strip.
  if (CLEAN.test(input)) {
    return { input, code: input, dot: -1, clean: true };
  }
  const compact = input.replace(/\s/g, '');
  const dot = compact.indexOf('.');
  const code = normaliseCode(compact);
  const clean = CLEAN.test(code) && (dot < 0 || compact.indexOf('.', dot + 1) < 0);
  return { input, code, dot, clean };
}

// ── Shapes ───────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * The undotted shape of every entry a system's files name, codes and headers alike (domain.md sections 1-6, checked
 * against the loaded files): a string outside it is malformed, one inside it is looked up.
 */
const SHAPES: Readonly<Record<CodeSystem, RegExp>> = {
  // Letter, then 2 to 6 alphanumerics: the second character is a digit except in FY2026's QA0 category.
  ICD10CM: /^[A-Z][0-9A-Z]{2,6}$/,
  // 7 characters without I or O (they read as 1 and 0), or the 3-character table a header row names. The first
  // character is the section: 0-9, B, C, D, F, G, H or X in every FY2024-FY2026 order file.
  ICD10PCS: /^[0-9BCDFGHX][0-9A-HJ-NP-Z]{2}(?:[0-9A-HJ-NP-Z]{4})?$/,
  // `250`-`25000`, `V01`-`V1000`, `E000`-`E8490`; categories (headers) have the shapes of codes.
  ICD9CM_DX: /^(?:\d{3,5}|V\d{2,4}|E\d{3,4})$/,
  // Categories `00`-`99` are headers; the v32 files list 3- and 4-digit codes.
  ICD9CM_PROC: /^\d{2,4}$/,
  // 5 digits (Category I), or 4 digits and F (Category II), T (Category III), U (PLA) or M (MAAA, e.g. `0002M` in
  // the MUE tables and OPPS Addendum B).
  CPT: /^(?:\d{5}|\d{4}[FMTU])$/,
  // A letter of a HCPCS Level II section (A-V; no section uses F, I, N or O) and 4 digits: `C8923`.
  HCPCS: /^[A-EGHJ-MP-V]\d{4}$/,
};

/**
 * Whether a normalised code has the shape of a code or header of `system`.
 * @param system - the code system
 * @param code - upper-case, undotted (see {@link normaliseCode})
 */
export function hasShapeOf(system: CodeSystem, code: string): boolean {
  return SHAPES[system].test(code);
}

/**
 * Whether a parsed code has the shape of a code of `system`, its dot (if any) included: `00.10` fits ICD-9-CM
 * procedures only, `001.0` diagnoses only, `0010` both.
 * @param system - the code system
 * @param parsed - the code as read by {@link parseCode}
 */
export function fitsShape(system: CodeSystem, parsed: ParsedCode): boolean {
  if (!parsed.clean || !hasShapeOf(system, parsed.code)) {
    return false;
  }
  return parsed.dot < 0 || (parsed.dot === dotPosition(system, parsed.code) && parsed.dot < parsed.code.length);
}

/**
 * Every list shapeSystems can answer, by bit mask over CODE_SYSTEMS: frozen and shared, so a batch of 100,000 codes
 * does not allocate (and keep) 100,000 small arrays.
 */
const SHAPE_LISTS: readonly (readonly CodeSystem[])[] = Array.from({ length: 1 << CODE_SYSTEMS.length }, (_, mask) =>
  Object.freeze(CODE_SYSTEMS.filter((_s, i) => (mask & (1 << i)) !== 0)),
);

/**
 * The systems whose shape a parsed code fits, in {@link CODE_SYSTEMS} order: the first step of detection (existence
 * in the reference data decides the rest).
 * @param parsed - the code as read by {@link parseCode}
 * @returns a frozen list, empty for a string no system could hold
 */
export function shapeSystems(parsed: ParsedCode): readonly CodeSystem[] {
  let mask = 0;
  if (parsed.clean) {
    for (let i = 0; i < CODE_SYSTEMS.length; i++) {
      if (fitsShape(CODE_SYSTEMS[i] as CodeSystem, parsed)) {
        mask |= 1 << i;
      }
    }
  }
  return SHAPE_LISTS[mask] as readonly CodeSystem[];
}

// ── Dotted and display forms ─────────────────────────────────────────────────────────────────────────────────────

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

// ── Code-set names and labels ────────────────────────────────────────────────────────────────────────────────────

/** How each system is named: its code set's wire name (`ICD-9 CM` covers both ICD-9-CM systems) and for people. */
const NAMES: Readonly<Record<CodeSystem, { readonly codeType: CodeType; readonly label: string }>> = {
  ICD10CM: { codeType: 'ICD-10 CM', label: 'ICD-10-CM' },
  ICD10PCS: { codeType: 'ICD-10 PCS', label: 'ICD-10-PCS' },
  ICD9CM_DX: { codeType: 'ICD-9 CM', label: 'ICD-9-CM diagnosis' },
  ICD9CM_PROC: { codeType: 'ICD-9 CM', label: 'ICD-9-CM procedure' },
  CPT: { codeType: 'CPT', label: 'CPT' },
  HCPCS: { codeType: 'HCPCS', label: 'HCPCS Level II' },
};

/** The wire name of a code system's code set (`ICD-9 CM` for both ICD-9-CM systems). */
export function codeTypeOf(system: CodeSystem): CodeType {
  return NAMES[system].codeType;
}

/** A code system named for people, in messages ("ICD-9-CM procedure"). */
export function systemLabel(system: CodeSystem): string {
  return NAMES[system].label;
}

/** A code-set name reduced to what tells names apart: lower case, no spaces or hyphens (`ICD-10 CM` → `icd10cm`). */
function nameKey(name: string): string {
  return name.toLowerCase().replace(/[\s-]/g, '');
}

/** The systems each wire name covers, by name key (a Map, so `constructor` and the like name nothing). */
const SYSTEMS_BY_TYPE_KEY = new Map<string, { readonly codeType: CodeType; readonly systems: CodeSystem[] }>();
for (const system of CODE_SYSTEMS) {
  const { codeType } = NAMES[system];
  const key = nameKey(codeType);
  const entry = SYSTEMS_BY_TYPE_KEY.get(key) ?? { codeType, systems: [] };
  entry.systems.push(system);
  SYSTEMS_BY_TYPE_KEY.set(key, entry);
}

/** Stored system names that are not also wire names: one half of ICD-9-CM each. */
const HALF_BY_KEY: ReadonlyMap<string, readonly CodeSystem[]> = new Map([
  [nameKey(CodeSystem.ICD9CM_DX), [CodeSystem.ICD9CM_DX]],
  [nameKey(CodeSystem.ICD9CM_PROC), [CodeSystem.ICD9CM_PROC]],
]);

/**
 * Reads a wire code-set name as a request spells it (operations.md "Code sets and dates, everywhere"): any case,
 * with or without spaces and hyphens (`ICD-10 CM`, `ICD-10-CM`, `icd10cm`, ` icd 10 pcs `).
 * @param name - the code-set name
 * @returns the canonical wire name, or `undefined` for a name no code set has (`ICD_10_CM`, `ICD10`)
 */
export function parseCodeType(name: string): CodeType | undefined {
  return SYSTEMS_BY_TYPE_KEY.get(nameKey(name))?.codeType;
}

/**
 * Reads a code-set name as a request spells it: a wire name as {@link parseCodeType} reads it, or a stored system
 * name (`ICD9CM_DX`, `ICD9CM_PROC`: one half of ICD-9-CM).
 * @param name - the code-set name
 * @returns the code systems it names (two for `ICD-9 CM`), or `undefined` for a name no code set has
 */
export function parseCodeSet(name: string): readonly CodeSystem[] | undefined {
  const key = nameKey(name);
  return SYSTEMS_BY_TYPE_KEY.get(key)?.systems ?? HALF_BY_KEY.get(key);
}

/** Code sets named with their article, for messages: `an ICD-10-PCS`, `an ICD-9-CM procedure or a CPT`. */
export function codeSetsPhrase(systems: readonly CodeSystem[]): string {
  return systems.map((s) => `${/^[AEIOU]/.test(systemLabel(s)) ? 'an' : 'a'} ${systemLabel(s)}`).join(' or ');
}
