// The shape of a rule (issue 11 §2): each file under rules/ exports one Rule that declares its id, what it checks,
// the datasets it needs and the finding codes it reports (their severities come from src/findings/codes.ts), and a
// `run` that reads a ClaimView and reports into a sink. Rules are pure: no I/O beyond the Reference port.
import { FindingCodes, type FindingCode, type RuleId } from '../../findings/codes.js';
import type { Finding, FindingSource, NotChecked, Severity } from '../../schemas/findings.js';
import type { ClaimView } from './context.js';

/** What a rule reports for one finding; rule, claim id and (by default) severity are filled in by the sink. */
export interface FindingInput {
  readonly code: FindingCode;
  /** Overrides the code's default severity (e.g. Excludes1 configured as an error). */
  readonly severity?: Severity | undefined;
  readonly lines: readonly number[];
  readonly codes: readonly string[];
  /** Positions (1-based) of the diagnoses it concerns, where it concerns particular ones. */
  readonly diagnoses?: readonly number[] | undefined;
  readonly source?: FindingSource | undefined;
  readonly message: string;
  readonly fix?: string | undefined;
}

/** What a rule reports for a check that could not run; rule and claim id are filled in by the sink. */
export interface NotCheckedInput {
  readonly lines: readonly number[];
  /** Positions (1-based) of the diagnoses it concerns, where it concerns particular ones. */
  readonly diagnoses?: readonly number[] | undefined;
  readonly reason: string;
  readonly missing: string;
}

/** Where a rule reports. */
export interface FindingSink {
  report(finding: FindingInput): void;
  /** A check that could not run: names the data that is missing. */
  notChecked(entry: NotCheckedInput): void;
}

/** One claim check of the catalogue. */
export interface Rule {
  readonly id: RuleId;
  /** What the rule checks, in one sentence (the README's rule table). */
  readonly checks: string;
  /** Datasets it reads (reference database dataset names). */
  readonly datasets: readonly string[];
  /** Finding codes it may report. */
  readonly codes: readonly FindingCode[];
  run(claim: ClaimView, out: FindingSink): void;
}

/**
 * The sink of one claim: collects into the claim's arrays, under the rule that runs (`rule`, set by the engine before
 * each rule). One object per claim rather than one per rule and claim: the engine runs every rule on every claim.
 */
export class ClaimSink implements FindingSink {
  /** The rule whose findings are being reported. */
  rule: RuleId = 'claim.structure';

  constructor(
    private readonly claimId: string,
    private readonly findings: Finding[],
    private readonly skipped: NotChecked[],
  ) {}

  report(f: FindingInput): void {
    const finding: Finding = {
      rule: this.rule,
      code: f.code,
      severity: f.severity ?? FindingCodes[f.code].severity,
      claimId: this.claimId,
      // The rule's own arrays, not copies: findings are read, never changed, after they are reported.
      lines: f.lines as number[],
      codes: f.codes as string[],
      message: f.message,
    };
    if (f.diagnoses !== undefined) {
      finding.diagnoses = f.diagnoses as number[];
    }
    if (f.source) {
      finding.source = f.source;
    }
    if (f.fix !== undefined) {
      finding.fix = f.fix;
    }
    this.findings.push(finding);
  }

  notChecked(e: NotCheckedInput): void {
    this.skipped.push({
      rule: this.rule,
      claimId: this.claimId,
      lines: e.lines as number[],
      ...(e.diagnoses !== undefined ? { diagnoses: e.diagnoses as number[] } : {}),
      reason: e.reason,
      missing: e.missing,
    });
  }
}
