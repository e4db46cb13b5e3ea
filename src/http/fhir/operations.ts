// The three FHIR terminology operations over the code and mapping engines. Each takes the call's inputs and answers
// a Parameters resource or a failure (OperationOutcome).
//
// $translate equivalence (R4 ConceptMapEquivalence) from the GEM flags of each GemsMap row:
//   no map (isNotMappable)                       → unmatched (no concept)
//   combination (isCombination)                  → narrower: each target is one part of the source; every choice list
//                                                  of the scenario is needed (GemsMap carries scenario/choice list)
//   exact (not approximate, not combination)     → equivalent
//   approximate, and the reverse GEM maps the
//   target back to several codes of the source set → wider: the target also stands for other source codes
//   approximate otherwise                        → inexact
import { IsoDate } from '../../schemas/claim.js';
import { parseCodeSet } from '../../schemas/code-systems.js';
import type { CodeDetail } from '../../schemas/codes.js';
import { codeDetails } from '../../engines/codes/index.js';
import { gemsMap } from '../../engines/mapping/index.js';
import { normaliseCode, type Reference } from '../../reference/index.js';
import type { GemsMapItem } from '../../schemas/mapping.js';
import { failure, fieldError, invalid, isFailure } from '../../schemas/result.js';
import type { FhirFailure, FhirInputs, ParameterOut, Parameters } from './parameters.js';
import { notSupported, parameters } from './parameters.js';
import { SUPPORTED_SYSTEMS, systemOf, systemOfCodeType, type FhirSystem } from './systems.js';

/** What an operation needs besides its inputs. */
export interface FhirContext {
  readonly reference: Reference;
  /** The answer date `YYYY-MM-DD` when the call gives none. */
  readonly today: string;
}

/** A FHIR date of a day, or a dateTime: its own calendar day is the date (the time and zone are not read). */
const DAY_OR_DATE_TIME = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/;

function dateOf(inputs: FhirInputs, today: string): string | FhirFailure {
  const given = inputs.value('date');
  if (given === undefined) {
    return today;
  }
  // The day must exist (2026-02-30 was read as a date past every release).
  const day = DAY_OR_DATE_TIME.exec(given)?.[1];
  return day !== undefined && IsoDate.safeParse(day).success
    ? day
    : invalid([fieldError('InvalidValue', 'date', {}, `date "${given}" is not a FHIR date or dateTime of a day that exists.`)]);
}

/** The system and code of a call: `system`/`url` + `code`, or a `coding` / `codeableConcept`. */
function subjectOf(
  inputs: FhirInputs,
  systemParam: 'system' | 'url',
): { system: FhirSystem; code: string; display?: string | undefined; version?: string | undefined } | FhirFailure {
  const supported = (uri: string): boolean => systemOf(uri) !== undefined;
  const coding = inputs.coding('coding', supported) ?? inputs.coding('codeableConcept', supported);
  const uri = inputs.value(systemParam) ?? coding?.system;
  const code = inputs.value('code') ?? coding?.code;
  if (code === undefined || code.trim() === '') {
    return invalid([fieldError('NotEmpty', 'code', {}, 'Give a code: the `code` parameter or a `coding`.')]);
  }
  if (uri === undefined || uri.trim() === '') {
    return invalid([
      fieldError('NotEmpty', systemParam, {}, `Give the code system (\`${systemParam}\`): one of ${SUPPORTED_SYSTEMS}.`),
    ]);
  }
  const system = systemOf(uri);
  if (system === undefined) {
    return notSupported(systemParam, `Code system "${uri}" is not supported; use one of ${SUPPORTED_SYSTEMS}.`);
  }
  return { system, code: code.trim(), display: coding?.display, version: inputs.value('version') ?? coding?.version };
}

/**
 * The date a call is answered on: its `date` (default today), within the release its `version` names when it names
 * one (FY2024: a date of FY2024; without a date, today's if FY2024 covers it, else FY2024's last day). A version
 * that is not loaded, or a date outside it, is a 400 naming the field: answered on another release, it was ignored.
 */
function answerDate(
  inputs: FhirInputs,
  ctx: FhirContext,
  subject: { readonly system: FhirSystem; readonly version?: string | undefined },
): string | FhirFailure {
  const date = dateOf(inputs, ctx.today);
  const version = subject.version?.trim();
  if (typeof date !== 'string' || version === undefined || version === '') {
    return date;
  }
  const releases = (parseCodeSet(subject.system.codeSet) ?? []).flatMap((s) => ctx.reference.codes.releases(s));
  const r = releases.find((x) => x.release.toLowerCase() === version.toLowerCase());
  if (r === undefined) {
    const loaded = releases.map((x) => x.release).join(', ') || 'none';
    return invalid([fieldError('InvalidValue', 'version', {}, `version "${version}" of ${subject.system.name} is not loaded (loaded: ${loaded}).`)]);
  }
  const end = r.validTo ?? '9999-12-31';
  if (inputs.value('date') === undefined) {
    return date < r.validFrom ? r.validFrom : date > end ? end : date;
  }
  if (date < r.validFrom || date > end) {
    return invalid([
      fieldError('InvalidValue', 'date', {}, `date ${date} is outside version ${r.release} of ${subject.system.name} (${r.validFrom} to ${r.validTo ?? 'today'}).`),
    ]);
  }
  return date;
}

function detailOf(ctx: FhirContext, system: FhirSystem, code: string, date: string): CodeDetail {
  return codeDetails(ctx.reference, [code], date, system.codeSet)[0] as CodeDetail;
}

const exists = (d: CodeDetail): boolean => d.invalidReason !== 'NotFound' && d.reasonCode !== 'CODE_MALFORMED';

const property = (code: string, value: Omit<ParameterOut, 'name' | 'part'>): ParameterOut => ({
  name: 'property',
  part: [{ name: 'code', valueCode: code }, { name: 'value', ...value }],
});

/**
 * `CodeSystem/$lookup`: name, version, display and properties of a code on `date` (default today).
 * Properties (ext): `valid` (billable and in force), `invalid-reason`, `short-description`, `message`.
 * A code no loaded release has (or a malformed one) is 404.
 */
export function lookup(inputs: FhirInputs, ctx: FhirContext): Parameters | FhirFailure {
  const subject = subjectOf(inputs, 'system');
  if (isFailure(subject)) {
    return subject;
  }
  const date = answerDate(inputs, ctx, subject);
  if (typeof date !== 'string') {
    return date;
  }
  const d = detailOf(ctx, subject.system, subject.code, date);
  if (!exists(d)) {
    return failure('NotFound', d.message ?? `Code "${subject.code}" is not in ${subject.system.name}.`);
  }
  return parameters([
    { name: 'name', valueString: subject.system.name },
    d.release === undefined ? undefined : { name: 'version', valueString: d.release },
    { name: 'display', valueString: d.longDescription ?? d.shortDescription ?? d.code },
    property('code', { valueCode: d.code }),
    property('valid', { valueBoolean: d.isValid }),
    d.invalidReason === undefined ? undefined : property('invalid-reason', { valueCode: d.invalidReason }),
    d.shortDescription === undefined ? undefined : property('short-description', { valueString: d.shortDescription }),
    d.message === undefined ? undefined : property('message', { valueString: d.message }),
  ]);
}

/**
 * `CodeSystem/$validate-code`: `result` = the code is valid (exists and billable) on `date`; a `display` given
 * must match the long or short title, any case. Unknown codes are `result` false, not an error.
 */
export function validateCode(inputs: FhirInputs, ctx: FhirContext): Parameters | FhirFailure {
  const subject = subjectOf(inputs, 'url');
  if (isFailure(subject)) {
    return subject;
  }
  const date = answerDate(inputs, ctx, subject);
  if (typeof date !== 'string') {
    return date;
  }
  const d = detailOf(ctx, subject.system, subject.code, date);
  // The display of the coding checked (a codeableConcept's too), unless one is given on its own.
  const display = inputs.value('display') ?? subject.display;
  const titles = [d.longDescription, d.shortDescription].filter((t): t is string => t !== undefined);
  const displayOk =
    display === undefined || titles.some((t) => t.toLowerCase() === display.trim().toLowerCase());
  const result = d.isValid && displayOk;
  const message = !displayOk
    ? `The display "${display ?? ''}" does not match the title of ${d.code}: "${titles[0] ?? ''}".`
    : d.message ?? (d.isValid ? undefined : `${d.code} is not valid in ${subject.system.name} on ${date}.`);
  return parameters([
    { name: 'result', valueBoolean: result },
    message === undefined ? undefined : { name: 'message', valueString: message },
    titles[0] === undefined ? undefined : { name: 'display', valueString: titles[0] },
  ]);
}

function equivalenceOf(ctx: FhirContext, item: GemsMapItem, source: FhirSystem): string {
  if (item.isNotMappable === 1 || item.code === '') {
    return 'unmatched';
  }
  if (item.isCombination === 1) {
    return 'narrower';
  }
  if (item.isApproximate === 0) {
    return 'equivalent';
  }
  // The reverse GEM: which source-set codes the target maps back to.
  const kind = source.codeSet === 'ICD-10 PCS' || item.codeType === 'ICD-10 PCS' ? 'pcs' : 'dx';
  const direction = source.codeSet === 'ICD-9 CM' ? 'backward' : 'forward';
  const back = new Set(
    ctx.reference.mapping
      .gemsBySource(kind, direction, normaliseCode(item.code))
      .filter((r) => r.target !== null && !r.isNotMappable)
      .map((r) => r.target),
  );
  return back.size > 1 && back.has(normaliseCode(item.sourceCode)) ? 'wider' : 'inexact';
}

/**
 * `ConceptMap/$translate`: the GEM rows of a code as matches. ICD-10-CM and ICD-10-PCS translate to ICD-9-CM
 * (backward GEMs); ICD-9-CM to ICD-10-CM/PCS (forward GEMs). `targetsystem`, when given, must be the other side.
 */
export function translate(inputs: FhirInputs, ctx: FhirContext): Parameters | FhirFailure {
  const subject = subjectOf(inputs, 'system');
  if (isFailure(subject)) {
    return subject;
  }
  const { system, code } = subject;
  if (system.mapType === undefined) {
    return notSupported('system', `No GEM translates ${system.name} codes.`);
  }
  const date = dateOf(inputs, ctx.today);
  if (typeof date !== 'string') {
    return date;
  }
  // `target` is a value set: the one of a whole code system (its URI, with or without `?fhir_vs`) is read as that
  // system; any other is not served (ignored, it answered a translation the caller had not asked for).
  const named = inputs.value('targetsystem') ?? inputs.value('targetSystem');
  const target = named ?? inputs.value('target')?.replace(/\?fhir_vs$/, '');
  const targetSystem = target === undefined ? undefined : systemOf(target);
  if (target !== undefined && (targetSystem === undefined || targetSystem.codeSet === system.codeSet)) {
    return notSupported(named === undefined ? 'target' : 'targetsystem', `No GEM translates ${system.name} to "${target}".`);
  }
  const mapped = gemsMap(ctx.reference, [code], system.mapType, date);
  const matches: ParameterOut[] = mapped.result
    .filter((item) => targetSystem === undefined || item.code === '' || systemOfCodeType(item.codeType) === targetSystem)
    .map((item) => {
      const equivalence = equivalenceOf(ctx, item, system);
      const targetOf = systemOfCodeType(item.codeType);
      const part: ParameterOut[] = [{ name: 'equivalence', valueCode: equivalence }];
      if (equivalence !== 'unmatched' && targetOf !== undefined) {
        part.push({ name: 'concept', valueCoding: { system: targetOf.uri, code: item.code, display: item.codeDesc } });
      }
      return { name: 'match', part };
    });
  const matched = matches.some((m) => m.part?.[0]?.valueCode !== 'unmatched');
  const notes = mapped.messages.map((m) => m.message).join(' ');
  return parameters([
    { name: 'result', valueBoolean: matched },
    notes === '' ? undefined : { name: 'message', valueString: notes },
    ...matches,
  ]);
}
