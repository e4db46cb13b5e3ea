// Rule 7, medical necessity under the lab NCDs (domain.md section 11; the CMS lab NCD spreadsheet): for a line whose
// procedure a lab NCD in force lists, each of the line's ICD-10-CM diagnoses valid on the date is read against the
// NCD's list (an invalid one supports nothing; code.validity reports it):
// resolution 1 supports the test; 2 (denied) and 3 (does not support) do not, and a code the NCD does not list is
// "not listed as covered". The line is medically necessary when at least one of its diagnoses supports it: then the
// others are reported for the record (info) and the supporting one is named; otherwise each is an error.
import type { FindingCode } from '../../../findings/codes.js';
import type { LabNcdForCode, NcdIcd10Resolution } from '../../../reference/queries/edits.js';
import type { FindingSource } from '../../../schemas/findings.js';
import { isIcdCodedLine, type DxView } from '../context.js';
import type { Rule } from '../rule.js';
import { isDecidedInvalid } from './code-validity.js';
import { editReleaseOn, lineLabNcdsOf, ncdResolutionOf } from './edit-answers.js';

const DATASET = 'ncd-lab';

/**
 * An NCD's policy id, the name messages give it and its finding source, made once per NCD row (a night's claims meet
 * the same few NCDs). The id is the NCD number CMS publishes (`NCD 190.21`); the spreadsheet splits 190.20, 190.21
 * and 190.23 into code lists A and B, which the name keeps (`NCD 190.21 (Glycated Hemoglobin/Glycated Protein, code
 * list 190.21B)`).
 */
interface NcdPolicy {
  readonly policyId: string;
  readonly named: string;
  readonly source: FindingSource;
}
const policies = new WeakMap<LabNcdForCode, NcdPolicy>();

function policyOf(ncd: LabNcdForCode): NcdPolicy {
  let policy = policies.get(ncd);
  if (policy === undefined) {
    const number = ncd.ncd.replace(/[A-Z]$/, '');
    const policyId = `NCD ${number}`;
    policy = {
      policyId,
      named: `${policyId} (${ncd.description}${number === ncd.ncd ? '' : `, code list ${ncd.ncd}`})`,
      source: Object.freeze({
        dataset: DATASET,
        release: ncd.release,
        policyId,
        policyTitle: ncd.description,
        policyType: 'N' as const,
      }),
    };
    policies.set(ncd, policy);
  }
  return policy;
}

export const ncdLab: Rule = {
  id: 'ncd.lab',
  checks:
    "A procedure a lab NCD lists is billed with at least one diagnosis the NCD covers on the date; each diagnosis's resolution is reported.",
  datasets: [DATASET],
  codes: ['NCD_SUPPORTED', 'NCD_DENIED', 'NCD_NOT_SUPPORTING', 'NCD_NOT_LISTED'],
  run(view, out) {
    for (const l of view.lines) {
      if (isIcdCodedLine(l)) {
        continue;
      }
      const release = editReleaseOn(view.ref.edits, DATASET, l.date);
      if (release === undefined) {
        out.notChecked({
          lines: [l.line.lineNumber],
          reason: `No lab NCD list is loaded for ${l.date}: whether an NCD governs ${l.line.procedureCode} is unknown.`,
          missing: `${DATASET} for ${l.date}`,
        });
        continue;
      }
      const ncds = lineLabNcdsOf(view.ref.edits, l);
      if (ncds.length === 0) {
        continue;
      }
      // A code that is not valid on the date (deleted, a header, malformed: code.validity says which) supports no
      // test, not even through an NCD's "all other codes" row; one whose validity the loaded data cannot decide is
      // read against the list.
      const dx: DxView[] = [];
      let invalid = 0;
      for (const i of l.dx) {
        const d = view.dx[i];
        if (d !== undefined && d.detail.codeType === 'ICD-10 CM') {
          if (isDecidedInvalid(d.detail)) {
            invalid++;
          } else {
            dx.push(d);
          }
        }
      }
      for (const ncd of ncds) {
        const { policyId, named, source } = policyOf(ncd);
        if (dx.length === 0) {
          out.report({
            code: 'NCD_NOT_LISTED',
            lines: [l.line.lineNumber],
            codes: [l.line.procedureCode],
            source,
            message:
              invalid > 0
                ? `${l.line.procedureCode} falls under ${named} but none of the line's diagnoses is a valid ICD-10-CM code on ${l.date}.`
                : `${l.line.procedureCode} falls under ${named} but the line points to no ICD-10-CM diagnosis.`,
            fix:
              invalid > 0
                ? 'Correct the diagnosis codes (see the code validity findings).'
                : `Point the line to the diagnosis that justifies the test.`,
          });
          continue;
        }
        const read: (NcdIcd10Resolution | undefined)[] = [];
        for (const d of dx) {
          read.push(ncdResolutionOf(view.ref.edits, ncd.ncd, d.norm, l.date));
        }
        const supportingAt = read.findIndex((r) => r?.resolution === 1);
        const supporting = supportingAt < 0 ? undefined : (dx[supportingAt] as DxView);
        for (let k = 0; k < dx.length; k++) {
          const d = dx[k] as DxView;
          const r = read[k];
          const code: FindingCode =
            r === undefined || r.matched === 'all-other'
              ? r?.resolution === 1
                ? 'NCD_SUPPORTED'
                : 'NCD_NOT_LISTED'
              : r.resolution === 1
                ? 'NCD_SUPPORTED'
                : r.resolution === 2
                  ? 'NCD_DENIED'
                  : 'NCD_NOT_SUPPORTING';
          const codes = [l.line.procedureCode, d.code];
          const diagnoses = [d.index + 1];
          if (code === 'NCD_SUPPORTED') {
            out.report({
              code,
              lines: [l.line.lineNumber],
              codes,
              diagnoses,
              source,
              message: `${d.code} supports ${l.line.procedureCode} under ${named}.`,
            });
            continue;
          }
          const why =
            code === 'NCD_DENIED'
              ? 'is on its list of codes that are never covered'
              : code === 'NCD_NOT_SUPPORTING'
                ? 'is on its list of codes that do not support medical necessity'
                : 'is not listed as covered';
          out.report({
            code,
            severity: supporting ? 'info' : undefined,
            lines: [l.line.lineNumber],
            codes,
            diagnoses,
            source,
            message:
              `${d.code} ${why} by ${named} for ${l.line.procedureCode}` +
              (supporting
                ? `; the line is supported by ${supporting.code}.`
                : ': no diagnosis on the line supports the test.'),
            fix: supporting
              ? undefined
              : `Add the documented diagnosis that ${policyId} covers, or obtain an ABN (the test is likely denied).`,
          });
        }
      }
    }
  },
};
