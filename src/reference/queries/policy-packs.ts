// Read side of the policy packs (issue 11 rule 10; format in docs/policy-packs.md): which packs are loaded, and which
// of their rules are in force for a procedure code on a date for a claim's scope. The packs are small, so every
// pack and rule is read into memory on first use and answered from there. A database built before the packs'
// tables existed answers "no packs", never a pass of a rule it cannot read.
import type Database from 'better-sqlite3';
import { hasTable } from './tables.js';
import {
  inSpan,
  packInScope,
  type CodeSpan,
  type PolicyPackRule,
  type PolicyPackScope,
  type PolicyPackType,
} from '../../schemas/policy-pack.js';

/** A loaded pack. */
export interface PolicyPackSummary {
  readonly id: string;
  readonly version: string;
  readonly type: PolicyPackType;
  readonly title: string;
  readonly scope: PolicyPackScope;
  /** An illustrative pack, not a real policy. */
  readonly example: boolean;
  readonly validFrom: string;
  readonly validTo: string | null;
  /** The source file, as the build names it (`policies/medicare-preventive.policy.json`). */
  readonly file: string;
}

/** One rule of a pack, with the dates it is in force (the pack's, narrowed by the rule's own). */
export interface PolicyPackRuleInForce {
  readonly pack: PolicyPackSummary;
  readonly rule: PolicyPackRule;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** The claim a question is about: national packs always apply; these select contractor- and payer-scoped ones. */
export interface PolicyPackClaimScope {
  readonly contractorNumber?: string | undefined;
  readonly payerCode?: string | undefined;
}

export interface PolicyPackQueries {
  /** Every loaded pack, by id then version. */
  packs(): readonly PolicyPackSummary[];
  /**
   * The rules in force on a date that list a procedure code, of the packs whose scope takes the claim.
   * @param code - CPT/HCPCS code, upper-case
   * @param date - ISO date of service
   */
  rulesFor(code: string, date: string, scope: PolicyPackClaimScope): readonly PolicyPackRuleInForce[];
  /** Reads the packs now rather than on first use. */
  load(): void;
}

interface Loaded {
  readonly packs: PolicyPackSummary[];
  /** Rules by a single procedure code, and the rules listed by a range. */
  readonly byCode: Map<string, PolicyPackRuleInForce[]>;
  readonly byRange: { readonly span: CodeSpan; readonly entry: PolicyPackRuleInForce }[];
}

function read(db: Database.Database): Loaded {
  const loaded: Loaded = { packs: [], byCode: new Map(), byRange: [] };
  if (!hasTable(db, 'policy_pack')) {
    return loaded;
  }
  const packRows = db
    .prepare(
      `SELECT p.pack_id AS id, p.version, p.type, p.title, p.scope_kind AS scopeKind, p.example,
              p.valid_from AS validFrom, p.valid_to AS validTo, s.file
       FROM policy_pack p JOIN source s ON s.id = p.source_id ORDER BY p.pack_id, p.version`,
    )
    .all() as {
    id: string;
    version: string;
    type: PolicyPackType;
    title: string;
    scopeKind: PolicyPackScope['kind'];
    example: number;
    validFrom: string;
    validTo: string | null;
    file: string;
  }[];
  const scopeValues = db.prepare(
    'SELECT value FROM policy_pack_scope WHERE pack_id = ? AND version = ? ORDER BY value',
  );
  const packs = new Map<string, PolicyPackSummary>();
  for (const r of packRows) {
    const values = (scopeValues.all(r.id, r.version) as { value: string }[]).map((v) => v.value);
    const scope: PolicyPackScope =
      r.scopeKind === 'contractors'
        ? { kind: 'contractors', contractors: values }
        : r.scopeKind === 'payers'
          ? { kind: 'payers', payers: values }
          : { kind: 'national' };
    const pack: PolicyPackSummary = {
      id: r.id,
      version: r.version,
      type: r.type,
      title: r.title,
      scope,
      example: r.example === 1,
      validFrom: r.validFrom,
      validTo: r.validTo,
      file: r.file,
    };
    packs.set(`${r.id}|${r.version}`, pack);
    loaded.packs.push(pack);
  }
  const rules = new Map<string, PolicyPackRuleInForce>();
  const ruleRows = db
    .prepare(
      'SELECT pack_id AS packId, version, rule_id AS ruleId, valid_from AS validFrom, valid_to AS validTo, body FROM policy_pack_rule',
    )
    .all() as {
    packId: string;
    version: string;
    ruleId: string;
    validFrom: string;
    validTo: string | null;
    body: string;
  }[];
  for (const r of ruleRows) {
    const pack = packs.get(`${r.packId}|${r.version}`);
    if (pack !== undefined) {
      // The body was checked against the PolicyPackRule schema when the pack was loaded.
      const rule = JSON.parse(r.body) as PolicyPackRule;
      rules.set(`${r.packId}|${r.version}|${r.ruleId}`, { pack, rule, validFrom: r.validFrom, validTo: r.validTo });
    }
  }
  const procedureRows = db
    .prepare(
      'SELECT code_from AS codeFrom, code_to AS codeTo, pack_id AS packId, version, rule_id AS ruleId FROM policy_pack_procedure',
    )
    .all() as { codeFrom: string; codeTo: string; packId: string; version: string; ruleId: string }[];
  for (const p of procedureRows) {
    const entry = rules.get(`${p.packId}|${p.version}|${p.ruleId}`);
    if (entry === undefined) {
      continue;
    }
    if (p.codeFrom === p.codeTo) {
      const list = loaded.byCode.get(p.codeFrom);
      if (list) {
        list.push(entry);
      } else {
        loaded.byCode.set(p.codeFrom, [entry]);
      }
    } else {
      loaded.byRange.push({ span: { from: p.codeFrom, to: p.codeTo }, entry });
    }
  }
  return loaded;
}

const NO_RULES: readonly PolicyPackRuleInForce[] = Object.freeze([]);

/** A rule in force on a date whose pack's scope takes the claim. */
function appliesTo(e: PolicyPackRuleInForce, date: string, scope: PolicyPackClaimScope): boolean {
  return e.validFrom <= date && (e.validTo === null || date <= e.validTo) && packInScope(e.pack.scope, scope);
}

/** Prepares the policy-pack lookups of one connection. */
export function createPolicyPackQueries(db: Database.Database): PolicyPackQueries {
  let loaded: Loaded | undefined;
  const get = (): Loaded => (loaded ??= read(db));
  return {
    packs: () => get().packs,
    rulesFor(code, date, scope) {
      // Asked for every claim line, and most codes have no rule: nothing is allocated until one applies.
      const { byCode, byRange } = get();
      let found: PolicyPackRuleInForce[] | undefined;
      for (const e of byCode.get(code) ?? NO_RULES) {
        if (appliesTo(e, date, scope)) {
          (found ??= []).push(e);
        }
      }
      for (const r of byRange) {
        if (code.length === r.span.from.length && inSpan(code, r.span) && appliesTo(r.entry, date, scope)) {
          (found ??= []).push(r.entry);
        }
      }
      return found ?? NO_RULES;
    },
    load() {
      get();
    },
  };
}
