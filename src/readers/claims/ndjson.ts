// Claim NDJSON reader (issue 12 §2): one claim per line in the claim model's own nested shape. A line that is not
// JSON, or not a claim, is rejected with its line number and the first schema issue; blank lines are skipped.
import type { Readable } from 'node:stream';
import { parseClaim, RevenueOnlyLine, type Claim } from '../../schemas/claim.js';
import { readLines } from '../lines.js';
import { nothingToCheck, rejectedLine, type ReadItem } from './types.js';
import { MAX_RECORD_BYTES, OVERLONG_LINE } from './csv-records.js';
import { holdsNul, NUL_VALUE, textProblem, withoutNul } from './utf8.js';

/**
 * Why a line is not JSON, without quoting it: V8's message may carry a piece of the line (`Unexpected token 'D',
 * ..."id":DOE-JANE-9"...`), and rejected.csv is not a place for patient data. Only its fixed wording and the position
 * are kept.
 */
export function notJsonReason(e: unknown): string {
  const message = e instanceof Error ? e.message : '';
  const at = /at position (\d+)/.exec(message)?.[1];
  const what = message.startsWith('Unexpected token')
    ? 'an unexpected character'
    : message.startsWith('Unexpected end')
      ? 'the line ends inside a value'
      : message.startsWith('Unterminated string')
        ? 'a string is not closed'
        : message.startsWith('Unexpected non-whitespace character after JSON')
          ? 'more text after the value'
          : /^Bad (control|escaped) character/.test(message)
            ? 'a bad character in a string'
            : (/^Expected [^"]*?(?= in JSON)/.exec(message)?.[0].replace(/^E/, 'e') ?? 'a syntax error');
  return `not JSON: ${what}${at === undefined ? '' : ` at character ${String(Number(at) + 1)}`}`;
}

/**
 * What a claim file's claim must be beyond the claim model's shape, as the CSV and X12 readers have it (the model
 * also carries CodeValidate's requests, which may have no procedure): service lines, and dates of service that do
 * not end before they start. (A line number given twice is the engine's CLAIM_DUPLICATE_LINE finding.)
 */
function claimFileProblem(claim: Claim, revenueOnlyLines: number): string | undefined {
  if (claim.lines.length === 0 && revenueOnlyLines === 0) {
    return 'lines: the claim has no service lines';
  }
  const empty = nothingToCheck(claim);
  if (empty !== undefined) {
    return empty;
  }
  if (claim.dateOfServiceTo !== undefined && claim.dateOfServiceTo < claim.dateOfServiceFrom) {
    return `dateOfServiceTo: ${claim.dateOfServiceTo} is before dateOfServiceFrom ${claim.dateOfServiceFrom}`;
  }
  return undefined;
}

/**
 * Reads one NDJSON line as a claim.
 * @param text - the line
 * @param line - its physical line number
 * @param file - the file name, for provenance
 * @returns the claim (covering its service lines) or one rejected record
 */
export function claimOfJsonLine(text: string, line: number, file: string): ReadItem {
  const problem = textProblem(text);
  if (problem !== undefined) {
    // Still named by the claim id the line gives.
    return rejectedLine(file, line, claimIdOfJsonLine(text), problem);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return rejectedLine(file, line, undefined, notJsonReason(e));
  }
  const claimId = claimIdOfJson(value);
  if (text.includes('\\u0000') && holdsNul(value)) {
    return rejectedLine(file, line, claimId, NUL_VALUE);
  }
  const { claim, kept, problem: revenueProblem } = revenueOnlyLinesOut(value);
  const parsed = parseClaim(claim);
  if (parsed.success && revenueProblem !== undefined) {
    return rejectedLine(file, line, claimId, revenueProblem.reason);
  }
  if (parsed.success) {
    const revenueOnlyLines = kept === undefined ? 0 : (value as { lines: unknown[] }).lines.length - kept.length;
    const problem = claimFileProblem(parsed.data, revenueOnlyLines);
    if (problem !== undefined) {
      return rejectedLine(file, line, claimId, problem);
    }
    return revenueOnlyLines > 0
      ? { kind: 'claim', claim: parsed.data, file, line, inputLines: 1, revenueOnlyLines }
      : { kind: 'claim', claim: parsed.data, file, line, inputLines: 1 };
  }
  const issue = parsed.error.issues[0];
  // A line's position as the file gives it, revenue-only lines counted.
  const path = issue?.path.map((p, i) => (i === 1 && issue.path[0] === 'lines' && typeof p === 'number' ? (kept?.[p] ?? p) : p)) ?? [];
  // The first fault in the file's order: the claim's own, then by line.
  const at = path[0] === 'lines' && typeof path[1] === 'number' ? path[1] : -1;
  if (revenueProblem !== undefined && revenueProblem.line < at) {
    return rejectedLine(file, line, claimId, revenueProblem.reason);
  }
  const reason = `${path.join('.') || 'claim'}: ${issue?.message ?? 'not a claim'}`;
  return rejectedLine(file, line, claimId, reason);
}

/**
 * An institutional claim without its revenue-only lines (ReadClaim.revenueOnlyLines: a line with a 4-digit
 * `revenueCode` and no `procedureCode`), as the CSV and 837I readers leave them out of the model, each checked first
 * as any line is (RevenueOnlyLine: units, date, modifiers, pointers).
 * @returns the claim to parse, the positions of the lines kept when any were taken out, and the first fault of a
 *   revenue-only line
 */
function revenueOnlyLinesOut(value: unknown): { claim: unknown; kept?: number[]; problem?: { line: number; reason: string } } {
  const v = value as { claimType?: unknown; lines?: unknown } | null;
  if (v?.claimType !== 'institutional' || !Array.isArray(v.lines)) {
    return { claim: value };
  }
  const lines: unknown[] = v.lines;
  const kept: number[] = [];
  let problem: { line: number; reason: string } | undefined;
  lines.forEach((l, i) => {
    const x = l as { procedureCode?: unknown; revenueCode?: unknown } | null;
    // As the CSV reader: no procedure code and a revenue code given (RevenueOnlyLine then checks it is one).
    const revenueOnly = (x?.procedureCode === undefined || x.procedureCode === '') && typeof x?.revenueCode === 'string' && x.revenueCode !== '';
    if (!revenueOnly) {
      kept.push(i);
      return;
    }
    const checked = problem === undefined ? RevenueOnlyLine.safeParse(l) : undefined;
    if (checked?.success === false) {
      const issue = checked.error.issues[0];
      problem = { line: i, reason: `${['lines', i, ...(issue?.path ?? [])].join('.')}: ${issue?.message ?? 'not a line'}` };
    }
  });
  const claim = kept.length === lines.length ? value : { ...v, lines: kept.map((i) => lines[i]) };
  return { claim, ...(kept.length === lines.length ? {} : { kept }), ...(problem === undefined ? {} : { problem }) };
}

/** The claim id a parsed JSON line names, if any (a NUL, only its escape can be in the text, written U+FFFD). */
function claimIdOfJson(value: unknown): string | undefined {
  const id = (value as { claimId?: unknown } | null)?.claimId;
  return typeof id === 'string' && id !== '' ? withoutNul(id) : undefined;
}

/**
 * The claim id an NDJSON line names, when it is JSON and names one (for a line rejected unread, or a claim no worker
 * could read), a NUL byte in the line read as U+FFFD (JSON refuses a raw one).
 */
export function claimIdOfJsonLine(text: string): string | undefined {
  try {
    return claimIdOfJson(JSON.parse(withoutNul(text)));
  } catch {
    return undefined;
  }
}

/** A non-blank line of an NDJSON file. */
export interface JsonLine {
  readonly text: string;
  readonly line: number;
  /** Why the line cannot be read at all (longer than MAX_RECORD_BYTES: its start only is in `text`). */
  readonly problem?: string;
}

/**
 * Yields the non-blank lines of an NDJSON file (the pipeline parses them in its workers). A line ends with LF, CRLF
 * or a bare CR (JSON never holds a raw CR, so this is safe); one over MAX_RECORD_BYTES is passed over, so memory
 * stays bounded whatever the file holds.
 * @param source - the file's bytes (UTF-8, BOM accepted)
 */
export async function* readJsonLines(source: Readable): AsyncGenerator<JsonLine> {
  for await (const { text, lineNo, overlong, cut } of readLines(source, 'utf-8', { bareCr: true, maxLineBytes: MAX_RECORD_BYTES, cutLines: true })) {
    const t = lineNo === 1 ? text.replace(/^\uFEFF/, '') : text;
    if (overlong === true) {
      yield { text: t, line: lineNo, problem: OVERLONG_LINE };
    } else if (cut === true) {
      // The file could not be read past this line's bytes: whatever they hold, the line may be cut short.
      yield { text: t, line: lineNo, problem: 'the file cannot be read past this line: it may be cut short' };
    } else if (t.trim() !== '') {
      yield { text: t, line: lineNo };
    }
  }
}

/**
 * Yields the claims of an NDJSON file (and the lines that could not be read), in file order.
 * @param source - the file's bytes
 * @param file - the file name, for provenance
 */
export async function* readNdjsonClaims(source: Readable, file: string): AsyncGenerator<ReadItem> {
  for await (const json of readJsonLines(source)) {
    yield json.problem === undefined ? claimOfJsonLine(json.text, json.line, file) : rejectedLine(file, json.line, undefined, json.problem);
  }
}
