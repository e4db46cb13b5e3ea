// Rule 8, medical necessity under LCDs and their billing Articles (domain.md section 11; issue 11 rule 8): for each
// line, the exported LCD/Article versions in force on its date that list its HCPCS/CPT code and belong to the
// claim's contractor are read with their code lists: a diagnosis in a covered group the code is paired with
// supports the line, one in the non-covered list does not, and any other is "not listed as covered". One supporting
// diagnosis makes the line necessary (the others become info naming it), as under the lab NCDs. The group
// paragraphs are free text: the common "group N with group M" phrasings are read into pairing checks; a paragraph
// that states a condition we cannot read (or a frequency limit, which one claim cannot prove) is a warning quoting it.
// Without code lists (only the derived document index, or no export in force for the contractor on the date) the
// check is `notChecked`, naming the contractor's LCDs in force that may apply.
import type { FindingCode } from '../../../findings/codes.js';
import type { McdCode, McdCodeGroup, McdCodeUse, PolicyQueries } from '../../../reference/queries/policies.js';
import type { FindingSource } from '../../../schemas/findings.js';
import type { DxView, LineView, ValidationReference } from '../context.js';
import { resolveContractor, unresolvedReason, type ContractorResolution } from '../contractor.js';
import type { FindingSink, Rule } from '../rule.js';

/** How many LCDs a not-checked entry names. */
const NAMED_LCDS = 5;

/** The contract types (as the MCD writes them) a claim's part is billed under. */
const TYPE_WORD: Readonly<Record<ContractorResolution['part'], RegExp>> = {
  A: /part a/i,
  B: /part b/i,
  DME: /dme/i,
  HHH: /hhh|home health/i,
};
const KIND: Readonly<Record<ContractorResolution['part'], 'AB' | 'DME' | 'HHH'>> = {
  A: 'AB',
  B: 'AB',
  DME: 'DME',
  HHH: 'HHH',
};

/**
 * Who a document must name to apply to the claim. Contractor matching: the official export names each document's
 * contractors by 5-digit number, so an export document applies when it names the resolved contractor number; when
 * only the jurisdiction is resolved (a state with several numbers, such as California Part B), when it names any
 * contractor number the committed table gives for that jurisdiction's states and the claim's part (LCDs are
 * written per jurisdiction and list every number of it). The derived document index names contractors by MAC name
 * only, so it is matched by the MAC's name (and contract type) and over-includes a MAC's other jurisdictions: it is
 * only used to name LCDs that may apply, never to decide coverage.
 */
interface ContractorMatch {
  readonly numbers: readonly string[];
  /** Spellings of the MAC's name to look for in the derived index, most specific first. */
  readonly names: readonly string[];
  readonly type: RegExp;
}

/** The contractor's match, remembered per connection by resolution (contractors × parts: a few hundred at most). */
function contractorMatch(policies: PolicyQueries, c: ContractorResolution): ContractorMatch {
  const matches = cacheOf(policies).matches;
  const key = `${c.part}|${c.contractorNumber ?? ''}|${c.jurisdiction ?? ''}`;
  let match = matches.get(key);
  if (match === undefined) {
    match = matchContractor(policies, c);
    matches.set(key, match);
  }
  return match;
}

function matchContractor(policies: PolicyQueries, c: ContractorResolution): ContractorMatch {
  const kind = KIND[c.part];
  let numbers: string[] = [];
  let mac: string | undefined;
  if (c.contractorNumber !== undefined) {
    numbers = [c.contractorNumber];
    const facts = policies.contractorByNumber(c.contractorNumber);
    mac = facts.find((f) => f.name !== null)?.name ?? undefined;
    const state = facts.find((f) => f.state !== null)?.state;
    if (mac === undefined && state !== undefined && state !== null) {
      mac = policies.contractorsByState(state).jurisdictions.find((j) => j.kind === kind)?.mac;
    }
  } else if (c.jurisdiction !== undefined) {
    const jurisdictions = policies.contractorsByJurisdiction(c.jurisdiction).filter((j) => j.kind === kind);
    mac = jurisdictions[0]?.mac;
    const states = new Set(jurisdictions.flatMap((j) => j.states));
    numbers = [
      ...new Set(
        [...states].flatMap((s) =>
          policies
            .contractorsByState(s)
            .contractorNumbers.filter((n) => n.origin === 'cms-pages' && n.part === c.part)
            .map((n) => n.contractorNumber),
        ),
      ),
    ];
  }
  // The committed table and the MCD spell MAC names differently ("Noridian Administrative Services" / "Noridian
  // Healthcare Solutions, LLC", "Wisconsin Physicians Service (WPS)" / "WPS Insurance Corporation").
  const names =
    mac === undefined
      ? []
      : [mac, /\(([A-Z]{2,})\)/.exec(mac)?.[1], mac.split(/[\s,]+/)[0]].filter(
          (n): n is string => n !== undefined && n.length >= 3,
        );
  return { numbers, names, type: TYPE_WORD[c.part] };
}

/** A document version's identity. */
const keyOf = (d: { documentType: string; documentId: number; version: number }): string =>
  `${d.documentType}|${d.documentId}|${d.version}`;

/** A document's code lists and the rules read from its group paragraphs. */
interface ReadDocument {
  readonly covered: readonly McdCode[];
  readonly noncovered: readonly McdCode[];
  /** HCPCS group → the covered ICD-10 groups its paragraph pairs it with. */
  readonly hcpcsToDx: ReadonlyMap<number, ReadonlySet<number>>;
  /** Covered ICD-10 group → the procedure codes its paragraph limits it to. */
  readonly dxToCodes: ReadonlyMap<number, ReadonlySet<string>>;
  /** Covered ICD-10 group → the covered groups one of which must also be on the line. */
  readonly pairing: ReadonlyMap<number, ReadonlySet<number>>;
  /** Covered groups whose asterisk text says the asterisked codes are secondary only. */
  readonly secondaryOnly: ReadonlySet<number>;
  /** Conditions quoted as warnings: unparsed rules, frequency limits, asterisk texts we cannot read. */
  readonly conditions: readonly {
    readonly kind: 'hcpcs' | 'icd10-covered' | 'asterisk';
    readonly group: number;
    readonly text: string;
  }[];
}

/** Paragraph HTML as plain text. */
function plain(html: string | null): string {
  return (html ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The "Group 1 Paragraph:" / "Group 2 Codes:" label the MCD puts before a paragraph. */
const LABEL = /^group\s+\d+\s+(?:paragraph|codes?)\s*:?\s*/i;
/** Group numbers named in a phrase ("Group 2", "Groups 1 and 3", "Group 2 or Group 4"). */
const GROUPS = /\bgroups?\s+(\d+(?:\s*(?:,|and|or|&)\s*(?:group\s+)?\d+)*)/gi;
/** "Group 1 ... must be billed with ... Group 2". */
const EXPLICIT_PAIR =
  /\bgroup\s+(\d+)\b[^.]*?\b(?:billed|reported|coded|submitted|used)\s+(?:together\s+)?with\b[^.]*?\bgroup\s+(\d+)/i;
/** "must be billed with a code from Group 2", "requires a secondary diagnosis from Group 3", "in combination with Group 2". */
const IMPLICIT_PAIR =
  /\b(?:(?:must|should|needs? to|has to|is to)\s+be\s+(?:billed|reported|coded|submitted|used)(?:\s+together)?\s+with|requires?|in\s+(?:combination|conjunction)\s+with|along\s+with)\b[^.]*?\bgroups?\s+(\d+)/i;
/** Words that state a condition on a code's use. */
const RULEISH =
  /\b(?:must|required?|requires|only\s+(?:when|if|with|for)|in\s+(?:combination|conjunction)\s+with|along\s+with|billed\s+with|reported\s+with|dual\s+diagnosis|secondary|primary|principal|first[- ]listed|limited\s+to)\b/i;
/** Frequency limits: never provable on one claim (domain.md section 11). */
const FREQUENCY =
  /\b(?:once\s+(?:every|per|a|in)|every\s+\d+\s+(?:days?|weeks?|months?|years?)|per\s+(?:calendar\s+)?(?:year|lifetime)|\d+\s+times?\s+(?:per|every|a|in))\b/i;
/** CPT (5 digits, or 4 and a category letter) and HCPCS Level II codes named in a paragraph. */
const PROCEDURE_CODE = /\b(\d{4}[0-9FMTU]|[A-V]\d{4})\b/g;

const numbersIn = (phrase: string): number[] => [...phrase.matchAll(/\d+/g)].map((m) => Number(m[0]));

/**
 * Reads a document's code lists and group paragraphs.
 * @returns the covered and non-covered lists with the pairing rules and the conditions to quote
 */
function readDocument(codes: readonly McdCode[], groups: readonly McdCodeGroup[]): ReadDocument {
  const hcpcsToDx = new Map<number, Set<number>>();
  const dxToCodes = new Map<number, Set<string>>();
  const pairing = new Map<number, Set<number>>();
  const secondaryOnly = new Set<number>();
  const conditions: ReadDocument['conditions'][number][] = [];
  const add = <K, V>(map: Map<K, Set<V>>, key: K, values: readonly V[]): void => {
    const set = map.get(key) ?? new Set<V>();
    values.forEach((v) => set.add(v));
    map.set(key, set);
  };
  for (const g of groups) {
    const text = plain(g.paragraph);
    const body = text.replace(LABEL, '');
    let parsed = false;
    if (g.kind === 'hcpcs') {
      // "Group 2 Paragraph: report with a Group 2 diagnosis": the HCPCS group is covered by those ICD-10 groups.
      if (/\b(?:diagnos[ie]s|icd-?10)/i.test(body)) {
        const named = [...body.matchAll(GROUPS)].flatMap((m) => numbersIn(m[1] ?? ''));
        if (named.length > 0) {
          add(hcpcsToDx, g.group, named);
          parsed = true;
        }
      }
    } else if (g.kind === 'icd10-covered') {
      // "... provide coverage for CPT codes 82306 and 82652": the group covers those codes only.
      if (/\b(?:cpt|hcpcs|procedure)/i.test(body)) {
        const named = [...body.matchAll(PROCEDURE_CODE)].map((m) => m[1] as string);
        if (named.length > 0) {
          add(dxToCodes, g.group, named);
          parsed = true;
        }
      }
      const explicit = EXPLICIT_PAIR.exec(text);
      const implicit = explicit ? undefined : IMPLICIT_PAIR.exec(body);
      if (explicit) {
        add(pairing, Number(explicit[1]), [Number(explicit[2])]);
        parsed = true;
      } else if (implicit) {
        const partner = Number(implicit[1]);
        if (partner !== g.group) {
          add(pairing, g.group, [partner]);
          parsed = true;
        }
      }
      const asterisk = plain(g.asteriskText);
      if (/\bsecondary\b/i.test(asterisk)) {
        secondaryOnly.add(g.group);
      } else if (asterisk !== '') {
        conditions.push({ kind: 'asterisk', group: g.group, text: asterisk });
      }
    } else {
      continue; // Non-covered group paragraphs govern no covered code.
    }
    if (FREQUENCY.test(body) || (!parsed && RULEISH.test(body))) {
      conditions.push({ kind: g.kind, group: g.group, text });
    }
  }
  return {
    covered: codes.filter((c) => c.relation === 'covered'),
    noncovered: codes.filter((c) => c.relation === 'noncovered'),
    hcpcsToDx,
    dxToCodes,
    pairing,
    secondaryOnly,
    conditions,
  };
}

/**
 * Per reference connection: documents read once, the export documents of a contractor on a date, each contractor's
 * match, and the LCDs that may apply to a contractor on a date (a name search over the derived index, ~3 ms).
 */
interface Cache {
  readonly documents: Map<string, ReadDocument>;
  readonly exportDocs: Map<string, ReadonlySet<string>>;
  readonly matches: Map<string, ContractorMatch>;
  readonly mayApply: Map<string, ReturnType<typeof searchLcdsThatMayApply>>;
}
const caches = new WeakMap<PolicyQueries, Cache>();
function cacheOf(policies: PolicyQueries): Cache {
  let cache = caches.get(policies);
  if (cache === undefined) {
    cache = { documents: new Map(), exportDocs: new Map(), matches: new Map(), mayApply: new Map() };
    caches.set(policies, cache);
  }
  return cache;
}

/** The exported documents in force on a date that name one of the contractor numbers. */
function exportDocsOf(policies: PolicyQueries, match: ContractorMatch, date: string): ReadonlySet<string> {
  const cache = cacheOf(policies);
  const key = `${match.numbers.join(',')}|${date}`;
  let docs = cache.exportDocs.get(key);
  if (docs === undefined) {
    docs = new Set(
      match.numbers.flatMap((n) =>
        policies
          .mcdDocumentsByContractor(n, date)
          .filter((d) => d.origin === 'export' && d.contractors.some((c) => c.number === n))
          .map(keyOf),
      ),
    );
    cache.exportDocs.set(key, docs);
  }
  return docs;
}

function documentOf(policies: PolicyQueries, use: McdCodeUse): ReadDocument {
  const cache = cacheOf(policies);
  const key = keyOf(use);
  let doc = cache.documents.get(key);
  if (doc === undefined) {
    doc = readDocument(
      policies.mcdCodes(use.documentType, use.documentId, use.version),
      policies.mcdCodeGroups(use.documentType, use.documentId, use.version),
    );
    cache.documents.set(key, doc);
  }
  return doc;
}

/** What one diagnosis is under one document for one procedure code. */
type Reading =
  | { readonly kind: 'covered'; readonly code: McdCode }
  | { readonly kind: 'unpaired'; readonly code: McdCode; readonly partners: readonly number[] }
  | { readonly kind: 'noncovered' }
  | { readonly kind: 'other-code'; readonly groups: readonly number[] }
  | { readonly kind: 'not-listed' };

/**
 * Checks one line against one document that lists its code.
 * @param hcpcsGroups - the document's HCPCS groups that hold the line's code
 */
function checkDocument(
  l: LineView,
  dx: readonly DxView[],
  use: McdCodeUse,
  hcpcsGroups: readonly number[],
  doc: ReadDocument,
  out: FindingSink,
): void {
  if (doc.covered.length === 0 && doc.noncovered.length === 0) {
    return; // The document lists the code without diagnosis lists: its coverage does not turn on the diagnosis.
  }
  const proc = l.line.procedureCode;
  const policyId = `${use.documentType} ${use.displayId}`;
  const source: FindingSource = {
    dataset: use.documentType === 'LCD' ? 'mcd-lcd' : 'mcd-article',
    release: use.release,
    policyId,
    policyType: use.documentType === 'LCD' ? 'L' : 'A',
    policyTitle: use.title,
    policyVersion: String(use.version),
  };
  const lines = [l.line.lineNumber];
  if (dx.length === 0) {
    out.report({
      code: 'LCD_NOT_LISTED',
      lines,
      codes: [proc],
      source,
      message: `${proc} falls under ${policyId} (${use.title}) but the line points to no ICD-10-CM diagnosis.`,
      fix: 'Point the line to the diagnosis that justifies the service.',
    });
    return;
  }
  // The covered groups that cover this code: those its HCPCS group's paragraph names, else every group whose own
  // paragraph does not limit it to other codes.
  const named = hcpcsGroups.flatMap((g) => [...(doc.hcpcsToDx.get(g) ?? [])]);
  const applies = (group: number | null): boolean =>
    named.length > 0
      ? group !== null && named.includes(group)
      : group === null || (doc.dxToCodes.get(group)?.has(l.norm) ?? true);
  const coveredIn = (d: DxView, groups: ReadonlySet<number>): boolean =>
    doc.covered.some((c) => c.code === d.norm && c.group !== null && groups.has(c.group));
  const read = (d: DxView): Reading => {
    const listed = doc.covered.filter((c) => c.code === d.norm);
    const covering = listed.filter((c) => applies(c.group));
    for (const c of covering) {
      const partners = c.group === null ? undefined : doc.pairing.get(c.group);
      if (partners === undefined || dx.some((o) => o !== d && coveredIn(o, partners))) {
        return { kind: 'covered', code: c };
      }
    }
    const first = covering[0];
    if (first !== undefined) {
      return { kind: 'unpaired', code: first, partners: [...(doc.pairing.get(first.group ?? -1) ?? [])] };
    }
    if (doc.noncovered.some((c) => c.code === d.norm)) {
      return { kind: 'noncovered' };
    }
    return listed.length > 0
      ? { kind: 'other-code', groups: [...new Set(listed.map((c) => c.group ?? 0))] }
      : { kind: 'not-listed' };
  };
  const readings = dx.map((d) => ({ d, r: read(d) }));
  const supporting = readings.find((x) => x.r.kind === 'covered')?.d;
  const quoted = new Set<string>();
  const quote = (
    kind: ReadDocument['conditions'][number]['kind'],
    group: number,
    codes: string[],
    diagnoses?: number[],
  ): void => {
    for (const c of doc.conditions) {
      if (c.kind === kind && c.group === group && !quoted.has(c.text)) {
        quoted.add(c.text);
        out.report({
          code: 'LCD_CONDITION',
          lines,
          codes,
          diagnoses,
          source,
          message: `${policyId} (${use.title}) states a condition the claim's codes cannot prove for ${codes.join(' with ')}: "${c.text}"`,
          fix: 'Check the documentation (and, for a frequency limit, the patient history) against the quoted text.',
        });
      }
    }
  };
  hcpcsGroups.forEach((g) => quote('hcpcs', g, [proc]));
  for (const { d, r } of readings) {
    const codes = [proc, d.code];
    const diagnoses = [d.index + 1];
    if (r.kind === 'covered') {
      const group = r.code.group;
      out.report({
        code: 'LCD_COVERED',
        lines,
        codes,
        diagnoses,
        source,
        message: `${d.code} supports ${proc} under ${policyId} (${use.title})${group !== null ? `, covered Group ${group}` : ''}.`,
      });
      if (group !== null) {
        quote('icd10-covered', group, codes, diagnoses);
        if (r.code.asterisk) {
          quote('asterisk', group, codes, diagnoses);
        }
      }
      if (r.code.asterisk && group !== null && doc.secondaryOnly.has(group) && l.dx[0] === d.index) {
        out.report({
          code: 'LCD_SECONDARY_ONLY',
          lines,
          codes,
          diagnoses,
          source,
          message: `${d.code} is a secondary-only code (asterisked) under ${policyId} (${use.title}) but is the line's primary diagnosis.`,
          fix: 'Report the underlying condition first and this code as a secondary diagnosis.',
        });
      }
      continue;
    }
    const code: FindingCode =
      r.kind === 'unpaired' ? 'LCD_PAIRING_UNMET' : r.kind === 'noncovered' ? 'LCD_NON_COVERED' : 'LCD_NOT_LISTED';
    const why =
      r.kind === 'unpaired'
        ? `is covered (Group ${r.code.group ?? ''}) only when billed with a code from Group ${r.partners.join(' or ')}, which the line lacks, under`
        : r.kind === 'noncovered'
          ? 'is on the non-covered list of'
          : r.kind === 'other-code'
            ? `is not listed as covered for ${proc} (its covered Group ${r.groups.join(', ')} is for other codes) by`
            : 'is not listed as covered by';
    out.report({
      code,
      severity: supporting ? 'info' : undefined,
      lines,
      codes,
      diagnoses,
      source,
      message:
        `${d.code} ${why} ${policyId} (${use.title}) for ${proc}` +
        (supporting ? `; the line is supported by ${supporting.code}.` : ': no diagnosis on the line supports it.'),
      fix: supporting
        ? undefined
        : r.kind === 'unpaired'
          ? `Add the documented diagnosis from Group ${r.partners.join(' or ')} that ${policyId} requires with ${d.code}.`
          : `Add the documented diagnosis that ${policyId} covers, or obtain an ABN (the service is likely denied).`,
    });
  }
}

/** The LCDs that may apply to a contractor on a date, remembered per connection (contractors × dates of service). */
function lcdsThatMayApply(
  policies: PolicyQueries,
  match: ContractorMatch,
  date: string,
): ReturnType<typeof searchLcdsThatMayApply> {
  const mayApply = cacheOf(policies).mayApply;
  const key = `${match.numbers.join(',')}|${match.names.join(',')}|${match.type.source}|${date}`;
  let found = mayApply.get(key);
  if (found === undefined) {
    if (mayApply.size > 10_000) {
      mayApply.clear();
    }
    found = searchLcdsThatMayApply(policies, match, date);
    mayApply.set(key, found);
  }
  return found;
}

/** The LCDs that may apply, for a not-checked entry: the export's first, else the derived index's by MAC name. */
function searchLcdsThatMayApply(
  policies: PolicyQueries,
  match: ContractorMatch,
  date: string,
): { readonly lcds: readonly { displayId: string; title: string }[]; readonly from: string } {
  const exported = match.numbers.flatMap((n) =>
    policies.mcdDocumentsByContractor(n, date).filter((d) => d.origin === 'export' && d.documentType === 'LCD'),
  );
  if (exported.length > 0) {
    return { lcds: exported, from: 'the MCD export (without code lists for these codes)' };
  }
  for (const name of match.names) {
    const lower = name.toLowerCase();
    const found = policies
      .mcdDocumentsByContractor(name, date)
      .filter(
        (d) =>
          d.origin === 'derived-index' &&
          d.documentType === 'LCD' &&
          d.contractors.some((c) => c.name.toLowerCase().includes(lower) && match.type.test(c.types ?? '')),
      );
    if (found.length > 0) {
      const mac = found[0]?.contractors.find((c) => c.name.toLowerCase().includes(lower))?.name ?? name;
      return {
        lcds: found,
        from: `the derived MCD document index (not the official export; it has no code lists and names contractors by MAC name only, so these are ${mac}'s LCDs in all its jurisdictions)`,
      };
    }
  }
  return { lcds: [], from: '' };
}

export const lcdCoverage: Rule = {
  id: 'lcd.coverage',
  checks:
    "A procedure an LCD or billing Article of the claim's contractor lists is billed with a diagnosis its covered groups pair with the code (group pairing rules checked, unparsed conditions quoted).",
  datasets: ['mcd-lcd', 'mcd-article', 'mcd-documents-derived', 'medicare-contractors', 'zip5-locality'],
  codes: [
    'LCD_COVERED',
    'LCD_NON_COVERED',
    'LCD_NOT_LISTED',
    'LCD_PAIRING_UNMET',
    'LCD_SECONDARY_ONLY',
    'LCD_CONDITION',
  ],
  run(view, out) {
    if (view.lines.length === 0) {
      return;
    }
    const ref: ValidationReference = view.ref;
    const resolved = resolveContractor(ref, view.claim);
    if (resolved === undefined) {
      out.notChecked({
        lines: [],
        reason: `No Medicare contractor could be resolved from the claim (${unresolvedReason(ref, view.claim)}): which LCDs and Articles apply is unknown.`,
        missing: 'contractor',
      });
      return;
    }
    const policies = ref.policies;
    const match = contractorMatch(policies, resolved);
    const unchecked: LineView[] = [];
    for (const l of view.lines) {
      const docs = exportDocsOf(policies, match, l.date);
      if (docs.size === 0) {
        unchecked.push(l);
        continue;
      }
      // The line's code, in the HCPCS groups of each document of the contractor that lists it.
      const byDoc = new Map<string, { use: McdCodeUse; groups: number[] }>();
      for (const use of policies.mcdDocumentsForCode(l.norm, l.date)) {
        if (use.codeSystem !== 'HCPCS' || use.relation !== 'listed' || !docs.has(keyOf(use))) {
          continue;
        }
        const entry = byDoc.get(keyOf(use)) ?? { use, groups: [] };
        if (use.group !== null) {
          entry.groups.push(use.group);
        }
        byDoc.set(keyOf(use), entry);
      }
      if (byDoc.size === 0) {
        continue;
      }
      const dx = l.dx.flatMap((i) => {
        const d = view.dx[i];
        return d !== undefined && d.detail.codeType === 'ICD-10 CM' ? [d] : [];
      });
      for (const { use, groups } of byDoc.values()) {
        checkDocument(l, dx, use, groups, documentOf(policies, use), out);
      }
    }
    const first = unchecked[0];
    if (first === undefined) {
      return;
    }
    const { lcds, from } = lcdsThatMayApply(policies, match, first.date);
    const names = lcds.slice(0, NAMED_LCDS).map((d) => `${d.displayId} ${d.title}`);
    const more = lcds.length > NAMED_LCDS ? `; and ${lcds.length - NAMED_LCDS} more` : '';
    out.notChecked({
      lines: unchecked.length === view.lines.length ? [] : unchecked.map((l) => l.line.lineNumber),
      reason:
        lcds.length > 0
          ? `No LCD or Article code lists are loaded for ${resolved.text} on ${first.date}: ${lcds.length} LCD(s) in force may apply, from ${from}: ${names.join('; ')}${more}.`
          : `No MCD data covers ${resolved.text} on ${first.date}: neither the MCD export nor the derived document index names an LCD of that contractor in force.`,
      missing: `mcd-lcd / mcd-article export (code lists) for ${first.date}`,
    });
  },
};
