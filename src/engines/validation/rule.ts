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
  readonly source?: FindingSource | undefined;
  readonly message: string;
  readonly fix?: string | undefined;
}

/** Where a rule reports. */
export interface FindingSink {
  report(finding: FindingInput): void;
  /** A check that could not run: names the data that is missing. */
  notChecked(entry: { readonly lines: readonly number[]; readonly reason: string; readonly missing: string }): void;
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

/** A sink that collects into arrays for one claim and rule. */
export function collect(
  claimId: string,
  findings: Finding[],
  notChecked: NotChecked[],
): { forRule(rule: RuleId): FindingSink } {
  return {
    forRule: (rule) => ({
      report: (f) => {
        const finding: Finding = {
          rule,
          code: f.code,
          severity: f.severity ?? FindingCodes[f.code].severity,
          claimId,
          // The rule's own arrays, not copies: findings are read, never changed, after they are reported.
          lines: f.lines as number[],
          codes: f.codes as string[],
          message: f.message,
        };
        if (f.source) {
          finding.source = f.source;
        }
        if (f.fix !== undefined) {
          finding.fix = f.fix;
        }
        findings.push(finding);
      },
      notChecked: (e) => {
        notChecked.push({ rule, claimId, lines: e.lines as number[], reason: e.reason, missing: e.missing });
      },
    }),
  };
}
