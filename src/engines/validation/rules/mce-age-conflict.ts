// Rule 2, MCE edit 4 "Age conflict" (Definitions of Medicare Code Edits): any diagnosis on the record, principal or
// secondary, on an age list the patient's age falls outside (newborn 0, pediatric 0-17, maternity 9-64 in v43.1,
// adult 15-124; ranges read from the loaded version). Run on every claim type (domain.md section 13), with the age on
// the claim's from-date. A claim with a listed code but no age is `notChecked` ('patient age'), never a pass.
import { FactMemo } from '../code-facts.js';
import type { Rule } from '../rule.js';
import { linesOfDx, type DxView } from '../context.js';
import { described, mceEditOn, mceMergedOn, type MceHit } from './mce-version.js';

/** The four age lists (sections 4A-4D) and how a message names them. */
const AGE_LISTS: Readonly<Record<string, string>> = {
  'age-newborn': 'newborn',
  'age-pediatric': 'pediatric',
  'age-maternity': 'maternity',
  'age-adult': 'adult',
};

/** The list ids, one constant array (the merged index is kept per array). */
const AGE_LIST_IDS: readonly string[] = Object.keys(AGE_LISTS);

/**
 * Ranges the definitions fix for three lists, used when a loaded list carries none (the derived v37 table). The
 * maternity range changed between versions (12-55, then 9-64), so it is never assumed.
 */
const DEFINED_AGES: Readonly<Record<string, readonly [number, number]>> = {
  'age-newborn': [0, 0],
  'age-pediatric': [0, 17],
  'age-adult': [15, 124],
};

/** A diagnosis's memberships of the age lists. */
const AGE_HITS = new FactMemo<readonly MceHit[] | null>();

/** MCE edit 14: an age outside 0-124 is invalid, and no age conflict can be read from it. */
const MCE_MAX_AGE = 124;

export const mceAgeConflict: Rule = {
  id: 'mce.age-conflict',
  checks:
    "No diagnosis is on an MCE age list (newborn, pediatric, maternity, adult) that excludes the patient's age on the date of service.",
  datasets: ['mce', 'mce-v37-derived'],
  codes: ['MCE_AGE_CONFLICT'],
  run(view, out) {
    const on = mceEditOn(view, 'age-conflict', out);
    const merged = on && mceMergedOn(on, AGE_LIST_IDS, out);
    if (!on || !merged) {
      return;
    }
    let hits: { readonly d: DxView; readonly l: MceHit['l']; readonly m: MceHit['m'] }[] | undefined;
    for (const d of view.dx) {
      // The version is chosen by the date the diagnoses' facts are read on: their memo holds this version's hits.
      const known = AGE_HITS.of(d.facts);
      const found = known !== undefined ? known : AGE_HITS.keep(d.facts, merged.get(d.norm) ?? null);
      if (found !== null) {
        for (const { l, m } of found) {
          (hits ??= []).push({ d, l, m });
        }
      }
    }
    if (hits === undefined) {
      return;
    }
    const date = view.claim.dateOfServiceFrom;
    const age = view.ageOn(date);
    const codes = hits.map((h) => h.d.code).join(', ');
    if (age === undefined || age < 0 || age > MCE_MAX_AGE) {
      out.notChecked({
        lines: [],
        reason:
          age === undefined
            ? `${codes} ${hits.length === 1 ? 'is' : 'are'} on MCE ${on.version} age lists, and the claim gives no patient age or birth date.`
            : `The patient's age on ${date} (${String(age)}) is outside 0-${String(MCE_MAX_AGE)} (MCE edit 14, invalid age), so the age lists cannot be read for ${codes}.`,
        missing: 'patient age',
      });
      return;
    }
    for (const { d, l, m } of hits) {
      const defined = DEFINED_AGES[l.list.list];
      const low = m.ageMin ?? l.list.ageMin ?? defined?.[0];
      const high = m.ageMax ?? l.list.ageMax ?? defined?.[1];
      const label = AGE_LISTS[l.list.list] ?? l.list.list;
      if (low === undefined || high === undefined) {
        out.notChecked({
          lines: linesOfDx(view, d.index),
          diagnoses: [d.index + 1],
          reason: `${d.code} is on the MCE ${on.version} ${label} list, which gives no age range.`,
          missing: `age range of the MCE ${on.version} ${l.list.list} list`,
        });
        continue;
      }
      if (age >= low && age <= high) {
        continue;
      }
      const range = low === high ? `age ${String(low)}` : `ages ${String(low)}-${String(high)}`;
      out.report({
        code: 'MCE_AGE_CONFLICT',
        lines: linesOfDx(view, d.index),
        codes: [d.code],
        diagnoses: [d.index + 1],
        source: on.source,
        message: `Diagnosis ${described(d.code, m)} is on the MCE ${label} list (${range}), but the patient is ${String(age)} on ${date}.`,
        fix: "Check the patient's birth date or age; if they are right, review the diagnosis code.",
      });
    }
  },
};
