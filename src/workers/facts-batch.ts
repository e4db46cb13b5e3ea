// The cross-claim facts of a chunk's claims as the rows the CrossClaimStore inserts, in one JSON text: built in the
// worker that validated the claims, parsed on the main thread straight into those rows. Posted as objects, a million
// lines' facts (a line object, its MUE object, strings) took the workers ~1 s to serialize and the main thread
// ~1.3 s to read back and ~0.3 s to turn into rows, and left it that many objects to collect (2026-11-26). A claim's
// lines travel and are stored as one JSON text, made `line` rows (in SQL, by the store) only once its patient has a
// second claim or a frequency limit: as a row per line, parsing and inserting them was ~3 s of the main thread's
// time per million lines, for lines that in most runs can match nothing (2026-11-27).
import type { CrossClaimFacts, CrossClaimMue } from '../engines/validation/index.js';

/**
 * A line of a claim's `lines` text: line number, date, code, code as submitted, modifiers, units, MUE (the index of
 * its edit in the batch's `mues`), MUE value.
 */
export type LineFact = [number, string, string, string, string, number, number | null, number | null];
/** A `claim_fact` row: claim order, claim id, patient, setting, the claim's LineFact[] as JSON text. */
export type ClaimRow = [number, string, string, string, string];
/**
 * A `limit_row` row: claim order, line number, claim id, patient, pack rule key, date, code as submitted, count,
 * period start (exclusive), the limit as JSON.
 */
export type LimitRow = [number, number, string, string, string, string, string, number, string, string];

/** A chunk's facts as rows. Plain JSON: it crosses from a worker thread as text. */
export interface FactsBatch {
  /** Each MUE edit the batch's lines carry (once per object; the store keeps each distinct edit once). */
  readonly mues: CrossClaimMue[];
  readonly claims: ClaimRow[];
  readonly limits: LimitRow[];
  /**
   * Each pack rule the limits name, once, with its procedure codes and ranges (which earlier services, of the run or
   * the history, count toward it: the store finds them by code).
   */
  readonly rules: [string, readonly string[]][];
}

/** Gathers claims' facts into a {@link FactsBatch}; a claim without a patient id adds nothing. */
export class FactsBatchWriter {
  private readonly mues: CrossClaimMue[] = [];
  /** By identity: crossClaimFacts gives each distinct edit one object (the store's mue_def keys them by content). */
  private readonly mueAt = new Map<CrossClaimMue, number>();
  private readonly claims: ClaimRow[] = [];
  private readonly limits: LimitRow[] = [];
  private readonly rules = new Map<string, readonly string[]>();

  /** Claims and limits gathered so far. */
  get rows(): number {
    return this.claims.length + this.limits.length;
  }

  add(facts: CrossClaimFacts): void {
    const patient = facts.patientKey;
    if (patient === undefined) {
      return;
    }
    const { claimOrder, claimId, setting } = facts;
    const lines: LineFact[] = [];
    for (const l of facts.lines) {
      lines.push([l.lineNumber, l.date, l.code, l.submittedCode, l.modifiers, l.units, l.mue === undefined ? null : this.mueIndex(l.mue), l.mue?.value ?? null]);
      for (const limit of l.limits) {
        this.limits.push([
          claimOrder,
          l.lineNumber,
          claimId,
          patient,
          limit.ruleKey,
          l.date,
          l.submittedCode,
          limit.count,
          limit.after,
          JSON.stringify(limit),
        ]);
        if (!this.rules.has(limit.ruleKey)) {
          this.rules.set(limit.ruleKey, limit.procedures);
        }
      }
    }
    this.claims.push([claimOrder, claimId, patient, setting, JSON.stringify(lines)]);
  }

  /** The batch. */
  batch(): FactsBatch {
    return { mues: this.mues, claims: this.claims, limits: this.limits, rules: [...this.rules] };
  }

  /** The batch as the JSON text a worker posts ({@link parseFactsBatch} reads it back). */
  text(): string {
    return JSON.stringify(this.batch());
  }

  private mueIndex(mue: CrossClaimMue): number {
    let i = this.mueAt.get(mue);
    if (i === undefined) {
      i = this.mues.length;
      this.mues.push(mue);
      this.mueAt.set(mue, i);
    }
    return i;
  }
}

/**
 * A batch posted by a worker ({@link FactsBatchWriter.text}): the text comes from this program's own threads, so it
 * is read as the writer wrote it, not checked again.
 */
export const parseFactsBatch = (text: string): FactsBatch => JSON.parse(text) as FactsBatch;
