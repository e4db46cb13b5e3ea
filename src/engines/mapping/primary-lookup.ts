// PrimaryLookup (operations.md "PrimaryLookup"): an ICD-9-CM diagnosis → the ICD-10-CM codes of the forward GEM,
// first scenario's first choice list first, each carried forward through the CDC conversion table to the billable
// codes in force on the target date (the GEMs end at FY2018; codes have been split and replaced since).
import { CodeSystem, codeSetsPhrase, displayCode, dottedCode, normaliseCode } from '../../schemas/code-systems.js';
import type { MapMessage, PrimaryLookupResult } from '../../schemas/mapping.js';
import { GEM_SIDES } from './code-types.js';
import { releaseGap } from '../../schemas/validity.js';
import { createContext, type MappingContext, type MappingReference } from './context.js';
import { mapMessage } from './messages.js';

/** How many conversion-table links a target may be carried forward through. */
const MAX_HOPS = 6;
/** At most this many billable codes stand for a target that became a header with no conversion-table link. */
const MAX_DESCENDANTS = 25;

/** The answer of PrimaryLookup: the spec's `result`, and messages for `responseStatus.message`. */
export interface PrimaryLookupAnswer {
  readonly result: PrimaryLookupResult;
  readonly messages: MapMessage[];
}

/**
 * PrimaryLookup for several ICD-9-CM codes.
 * @param ref - the reference port
 * @param icd9Codes - ICD-9-CM diagnosis codes, dotted or not
 * @param targetDate - answer with ICD-10-CM codes valid on this date, `YYYY-MM-DD`
 * @returns one answer per code, in order
 */
export function primaryLookups(
  ref: MappingReference,
  icd9Codes: readonly string[],
  targetDate: string,
): PrimaryLookupAnswer[] {
  const ctx = createContext(ref, targetDate);
  return icd9Codes.map((code) => lookupOne(ctx, code));
}

/**
 * PrimaryLookup for one ICD-9-CM code: a wrapper over {@link primaryLookups}.
 * @param ref - the reference port
 * @param icd9Code - the ICD-9-CM diagnosis code, dotted or not
 * @param targetDate - answer with ICD-10-CM codes valid on this date, `YYYY-MM-DD`
 * @returns the result; an unknown code answers an empty list and a message
 */
export function primaryLookup(ref: MappingReference, icd9Code: string, targetDate: string): PrimaryLookupAnswer {
  return primaryLookups(ref, [icd9Code], targetDate)[0] as PrimaryLookupAnswer;
}

function lookupOne(ctx: MappingContext, raw: string): PrimaryLookupAnswer {
  const code = normaliseCode(raw);
  const detail = ctx.ref.mapping.icd9Detail('dx', code);
  const rows = ctx.gemRows(GEM_SIDES.dxForward, code);
  const known = detail !== undefined || rows.length > 0;
  const shown = known ? dottedCode(CodeSystem.ICD9CM_DX, code) : raw.trim().toUpperCase();
  const result = (list: string[]): PrimaryLookupResult => ({
    code: shown,
    codeAlt: code,
    longDescription: detail?.longTitle ?? '',
    shortDescription: detail?.shortTitle ?? '',
    primaryLookup: list,
  });

  if (!known) {
    const others = code === '' ? [] : ctx.ref.codes.systemsOf(code).filter((s) => s !== CodeSystem.ICD9CM_DX);
    const message =
      others.length > 0
        ? mapMessage(
            shown,
            'GEM_WRONG_TYPE',
            `${shown} is not an ICD-9-CM diagnosis code; it is ${codeSetsPhrase(others)} code.`,
          )
        : mapMessage(
            shown,
            'GEM_NOT_FOUND',
            `${shown === '' ? 'An empty code' : shown} is not an ICD-9-CM v32 diagnosis code.`,
          );
    return { result: result([]), messages: [message] };
  }
  if (rows.every((r) => r.isNotMappable)) {
    return {
      result: result([]),
      messages: [mapMessage(shown, 'GEM_NO_MAP', `The FY2018 GEM maps ${shown} to no ICD-10-CM code.`)],
    };
  }

  // First scenario's first choice list first: non-combination rows carry 0/0, so file order is kept for them.
  const ordered = rows
    .filter((r): r is typeof r & { target: string } => !r.isNotMappable && r.target !== null)
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.scenario - b.r.scenario || a.r.choiceList - b.r.choiceList || a.i - b.i)
    .map(({ r }) => r.target);

  // Which codes are billable on a date no loaded ICD-10-CM release covers is not known: no code is listed as if it
  // were (E11.9 was answered for 2030, and on 2016 dates none was said to be billable).
  const gap = releaseGap(ctx.ref.codes.releases(CodeSystem.ICD10CM), ctx.date);
  if (gap !== undefined) {
    const targets = ordered.map((c) => displayCode(CodeSystem.ICD10CM, c)).join(', ');
    return {
      result: result([]),
      messages: [
        mapMessage(
          shown,
          'LOOKUP_NO_DATA',
          `No loaded ICD-10-CM release covers ${ctx.date} (${gap}): which of the codes the GEM maps ${shown} to (${targets}), or the codes that replaced them, are billable then is not known.`,
        ),
      ],
    };
  }
  const list: string[] = [];
  const seen = new Set<string>();
  const carried: string[] = [];
  for (const target of ordered) {
    const now = carryForward(ctx, target);
    if (now.length !== 1 || now[0] !== target) {
      carried.push(
        `${displayCode(CodeSystem.ICD10CM, target)} → ${now.length > 0 ? now.map((c) => displayCode(CodeSystem.ICD10CM, c)).join(', ') : 'none'}`,
      );
    }
    for (const c of now) {
      if (!seen.has(c)) {
        seen.add(c);
        list.push(displayCode(CodeSystem.ICD10CM, c));
      }
    }
  }

  const messages: MapMessage[] = [];
  if (carried.length > 0 && list.length > 0) {
    messages.push(
      mapMessage(
        shown,
        'LOOKUP_CARRIED_FORWARD',
        `GEM targets not billable on ${ctx.date} were carried forward (CDC conversion table; for a target that became a ` +
          `header with no link, the billable codes under it): ${carried.join('; ')}.`,
      ),
    );
  }
  if (list.length === 0) {
    messages.push(
      mapMessage(
        shown,
        'LOOKUP_NONE_ON_DATE',
        `None of the ICD-10-CM codes the GEM maps ${shown} to (${ordered.map((c) => displayCode(CodeSystem.ICD10CM, c)).join(', ')}), ` +
          `nor the codes that replaced them, is a billable code on ${ctx.date} in the loaded ICD-10-CM releases.`,
      ),
    );
  }
  return { result: result(list), messages };
}

/**
 * The billable ICD-10-CM codes in force on the context's date that stand for a GEM target: the target itself when
 * it is billable then; else the codes the conversion table says took it over, carried on the same way; else, for a
 * target that is a header on the date, the billable codes under it.
 * @param visited - codes already on the path, so a cycle in the table cannot loop
 */
function carryForward(ctx: MappingContext, target: string, hops = 0, visited = new Set<string>()): string[] {
  visited.add(target);
  const version = ctx.ref.codes.onDate(CodeSystem.ICD10CM, target, ctx.date);
  if (version?.billable) {
    return [target];
  }
  if (hops >= MAX_HOPS) {
    return [];
  }
  // Links that took effect after the date have not replaced the target yet. A link naming the code itself beats one
  // naming a range or category that covers it (`I63.- and P91.88` → P91.821 is about neonates, not every I63 code).
  const links = ctx.ref.mapping.laterCodes(target).filter((l) => l.effective <= ctx.date);
  const exact = links.filter((l) => l.previousLast === null);
  const found: string[] = [];
  for (const link of exact.length > 0 ? exact : links) {
    if (visited.has(link.currentCode)) {
      continue;
    }
    for (const code of carryForward(ctx, link.currentCode, hops + 1, visited)) {
      if (!found.includes(code)) {
        found.push(code);
      }
    }
  }
  if (found.length === 0 && version && !version.billable) {
    // Expanded into subcodes without a usable link (the FY2025 table sends C83.390 to Z85.72, not to C83.39): the
    // billable codes under the header are what stands for it now.
    return ctx.ref.codes.billableDescendants(CodeSystem.ICD10CM, target, ctx.date, MAX_DESCENDANTS).map((v) => v.code);
  }
  return found;
}
