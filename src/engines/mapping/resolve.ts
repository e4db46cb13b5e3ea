// From a requested code to the GEM rows that answer it (operations.md "GemsMap"), shared by GemsMap and
// ProprietaryMap:
//
//   code ──► GEM rows of the code ──────────────────────────────────────────► rows as printed
//        └─► none: ICD-10-CM code in a loaded release? ── conversion table ──► rows of the code(s) it replaced
//        └─► otherwise: header / wrong code set / not in GEM / not found ───► no rows, one message saying why
//
// The GEMs end at FY2018 (domain.md section 5): a newer ICD-10-CM code is bridged through the CDC conversion table
// (current code → the code(s) it replaced, repeated while that code is itself newer), and the answer says so.
import type { ConversionLink, GemRow } from '../../reference/queries/mapping.js';
import {
  CodeSystem,
  codeSetsPhrase,
  displayCode,
  dottedCode,
  fitsShape,
  hasShapeOf,
  parseCode,
  systemLabel,
  type ParsedCode,
} from '../../schemas/code-systems.js';
import type { MapCodeType, MapMessage } from '../../schemas/mapping.js';
import { GEM_SIDES, type GemSide } from './code-types.js';
import type { MappingContext } from './context.js';
import { mapMessage } from './messages.js';

/** How many conversion-table links a bridge may follow from the requested code (the table is cumulative from FY2016). */
const MAX_HOPS = 6;

/** One GEM row that answers a requested code. */
export interface ResolvedRow {
  readonly gem: GemRow;
  /** Conversion-table links followed to reach the row's GEM source: 0 when the requested code is the source. */
  readonly hops: number;
}

/** A requested code with the GEM rows that answer it, read from one GEM file. */
export interface ResolvedSource {
  /** The file the rows come from (for a code with no rows: the file it was looked up in). */
  readonly side: GemSide;
  /** Normalised code (upper case, undotted). */
  readonly code: string;
  /** The code as the answer shows it (dotted for ICD-10-CM and ICD-9-CM diagnoses). */
  readonly sourceCode: string;
  readonly sourceCodeDesc: string;
  readonly sourceCodeType: MapCodeType;
  /** In GEM file order; bridged rows by link, then source, then file order, exact repeats dropped. Empty: not mappable. */
  readonly rows: readonly ResolvedRow[];
  /** Distinct GEM source codes behind the rows (more than one only for a bridge through a range or several codes). */
  readonly gemSources: number;
  readonly messages: readonly MapMessage[];
}

/**
 * Resolves one requested code against the GEMs for a requested code set.
 * @param ctx - the call's lookups
 * @param raw - the code as requested (any case, dotted or not)
 * @param type - the requested code set
 * @returns one entry, or two for an undotted ICD-9-CM code that is both a diagnosis and a procedure
 */
export function resolveSource(ctx: MappingContext, raw: string, type: MapCodeType): ResolvedSource[] {
  const parsed = parseCode(raw);
  switch (type) {
    case 'ICD-10 CM':
      return [resolveOnSide(ctx, parsed, type, GEM_SIDES.dxBackward)];
    case 'ICD-10 PCS':
      return [resolveOnSide(ctx, parsed, type, GEM_SIDES.pcsBackward)];
    case 'ICD-9 CM':
      return resolveIcd9(ctx, raw.trim(), parsed);
  }
}

/**
 * The forward GEMs an ICD-9-CM request's spelling allows: those whose shape it fits, the dot included (`00.10` is a
 * procedure, `001.0` and `V10.00` diagnoses, `0010` and `311` either). A spelling that fits neither (a dot out of
 * place) is looked up in both: the GEM rows, not the dot, then say what the code is.
 */
function icd9SidesOf(parsed: ParsedCode): GemSide[] {
  const sides = [GEM_SIDES.dxForward, GEM_SIDES.pcsForward];
  const fitting = sides.filter((side) => fitsShape(side.sourceSystem, parsed));
  return fitting.length > 0 ? fitting : sides;
}

/** ICD-9-CM → ICD-10 (the forward GEMs, ext): the spelling may leave diagnosis vs procedure open. */
function resolveIcd9(ctx: MappingContext, trimmed: string, parsed: ParsedCode): ResolvedSource[] {
  const code = parsed.code;
  const sides = icd9SidesOf(parsed);
  const found = sides.filter((side) => ctx.gemRows(side, code).length > 0);
  if (found.length === 0) {
    return [resolveOnSide(ctx, parsed, 'ICD-9 CM', sides[0] ?? GEM_SIDES.dxForward)];
  }
  const resolved = found.map((side) => resolveOnSide(ctx, parsed, 'ICD-9 CM', side));
  const [first] = resolved;
  if (resolved.length > 1 && first) {
    const both = resolved.map((r) => r.sourceCode);
    const message = mapMessage(
      first.sourceCode,
      'GEM_AMBIGUOUS',
      `${trimmed} is both an ICD-9-CM diagnosis (${both[0]}) and a procedure (${dottedCode(CodeSystem.ICD9CM_PROC, code)}): ` +
        'rows of both are returned; write the dot to choose.',
    );
    resolved[0] = resolvedOf(first, first.sourceCodeDesc, first.rows, first.gemSources, [message, ...first.messages]);
  }
  return resolved;
}

/** The fields of a resolved code known before its rows are. */
type SourceBase = Pick<ResolvedSource, 'side' | 'code' | 'sourceCode' | 'sourceCodeType'>;

/**
 * A resolved code, every member written out: a `{ ...base, … }` literal per code cost a fifth of a GemsMap call on
 * node 20's V8 (spread-then-members objects survive young-generation GCs).
 */
function resolvedOf(
  base: SourceBase,
  sourceCodeDesc: string,
  rows: readonly ResolvedRow[],
  gemSources: number,
  messages: readonly MapMessage[],
): ResolvedSource {
  return {
    side: base.side,
    code: base.code,
    sourceCode: base.sourceCode,
    sourceCodeDesc,
    sourceCodeType: base.sourceCodeType,
    rows,
    gemSources,
    messages,
  };
}

/** Resolves a code (its normal form; its spelling says which other code sets it may be) against one GEM file. */
function resolveOnSide(ctx: MappingContext, parsed: ParsedCode, type: MapCodeType, side: GemSide): ResolvedSource {
  const code = parsed.code;
  const system = side.sourceSystem;
  const wellFormed = hasShapeOf(system, code);
  const sourceCode = wellFormed ? displayCode(system, code) : code;
  const base: SourceBase = { side, code, sourceCode, sourceCodeType: type };
  const rows = ctx.gemRows(side, code);
  if (rows.length > 0) {
    return resolvedOf(
      base,
      ctx.title(system, code),
      rows.map((gem) => ({ gem, hops: 0 })),
      1,
      noMapMessages(sourceCode, side, rows, sourceCode),
    );
  }

  const none = (message: MapMessage): ResolvedSource =>
    resolvedOf(base, wellFormed ? ctx.title(system, code) : '', [], 0, [message]);

  // Known in its own code set: a header, a code newer than the GEMs (bridged for ICD-10-CM), or simply absent.
  const own = ownVersion(ctx, side, code);
  if (own) {
    if (!own.billable) {
      return none(
        mapMessage(
          sourceCode,
          'GEM_HEADER',
          `${sourceCode} is a header ${systemLabel(system)} code, not billable; the GEMs map billable codes only.`,
        ),
      );
    }
    if (side === GEM_SIDES.dxBackward) {
      const bridge = bridgeByConversion(ctx, code);
      if (bridge.rows.length > 0) {
        return resolvedOf(base, ctx.title(system, code), bridge.rows, bridge.gemSources, [
          mapMessage(
            sourceCode,
            'GEM_BRIDGED',
            `${sourceCode} is not in the FY2018 GEM: mapped through the CDC ICD-10-CM conversion table, ${bridge.path.join('; ')}.`,
          ),
          ...noMapMessages(
            sourceCode,
            side,
            bridge.rows.map((r) => r.gem),
            [...new Set(bridge.rows.map((r) => displayCode(system, r.gem.source)))].join(', '),
          ),
        ]);
      }
      return none(mapMessage(sourceCode, bridge.reason, `${sourceCode} ${bridge.explanation}`));
    }
    return none(
      mapMessage(
        sourceCode,
        'GEM_NOT_IN_GEM',
        `${sourceCode} is a ${systemLabel(system)} code that is not in the FY2018 GEM` +
          (system === CodeSystem.ICD10PCS ? ' (added later; there is no conversion table for ICD-10-PCS).' : '.'),
      ),
    );
  }

  // Another code set's code?
  const others = otherSystems(ctx, side, parsed);
  if (others.length > 0) {
    return none(mapMessage(sourceCode, 'GEM_WRONG_TYPE', `${code} is ${codeSetsPhrase(others)} code, not ${type}.`));
  }
  return none(
    mapMessage(
      sourceCode,
      'GEM_NOT_FOUND',
      wellFormed
        ? `${sourceCode} is in no loaded ${systemLabel(system)} release and not in the FY2018 GEM.`
        : `${code === '' ? 'An empty code' : code} is not a well-formed ${systemLabel(system)} code.`,
    ),
  );
}

/**
 * The GEM_NO_MAP message of a code some of whose rows have no target, if any.
 * @param mapped - the GEM source(s) the rows belong to, as shown (the code itself, or the codes a bridge reached)
 */
function noMapMessages(sourceCode: string, side: GemSide, rows: readonly GemRow[], mapped: string): MapMessage[] {
  const noMap = rows.filter((r) => r.isNotMappable).length;
  if (noMap === 0) {
    return [];
  }
  return [
    mapMessage(
      sourceCode,
      'GEM_NO_MAP',
      `The FY2018 GEM maps ${mapped} to no ${systemLabel(side.targetSystem)} code` +
        (noMap < rows.length ? ` in ${noMap} of its ${rows.length} rows.` : '.'),
    ),
  ];
}

/** The code's version on the date, else its newest loaded version (ICD-9: v32). */
function ownVersion(ctx: MappingContext, side: GemSide, code: string): { billable: boolean } | undefined {
  const system = side.sourceSystem;
  if (system === CodeSystem.ICD9CM_DX || system === CodeSystem.ICD9CM_PROC) {
    // v32 lists billable codes only; a header is in no file, so "known" means billable here.
    return ctx.ref.mapping.icd9Detail(side.kind === 'dx' ? 'dx' : 'proc', code) ? { billable: true } : undefined;
  }
  return ctx.ref.codes.onDate(system, code, ctx.date) ?? ctx.ref.codes.history(system, code).at(-1);
}

/**
 * The code sets other than the side's own that know the code (code table, or the other GEM of the same direction),
 * and whose spelling the input fits: a dotted `A02.10` is no HCPCS code A0210.
 */
function otherSystems(ctx: MappingContext, side: GemSide, parsed: ParsedCode): CodeSystem[] {
  const code = parsed.code;
  if (code === '') {
    return [];
  }
  const spelled = (s: CodeSystem): boolean => parsed.dot < 0 || fitsShape(s, parsed);
  const found = new Set(ctx.ref.codes.systemsOf(code).filter((s) => s !== side.sourceSystem && spelled(s)));
  const twin =
    side.direction === 'backward'
      ? side.kind === 'dx'
        ? GEM_SIDES.pcsBackward
        : GEM_SIDES.dxBackward
      : side.kind === 'dx'
        ? GEM_SIDES.pcsForward
        : GEM_SIDES.dxForward;
  if (!found.has(twin.sourceSystem) && spelled(twin.sourceSystem) && ctx.gemRows(twin, code).length > 0) {
    found.add(twin.sourceSystem);
  }
  // An ICD-9-CM request whose spelling ruled one kind out still names the other kind's code.
  return [...found];
}

/** A conversion-table bridge: the rows reached, or why there are none. */
interface Bridge {
  readonly rows: ResolvedRow[];
  readonly gemSources: number;
  /** The links followed, worded: `B88.01 (effective 2025-10-01) replaced B88.0`. */
  readonly path: string[];
  readonly reason: 'GEM_NEW_CONCEPT' | 'GEM_NOT_IN_GEM';
  /** Completes "<code> …" when no row was reached. */
  readonly explanation: string;
}

/**
 * The rows of a range or category of previous codes whose source has the 7th character (encounter, sequela, stage)
 * the link means: the one both ends of the range share (`S06.890A-S06.899A`: initial encounters), else the bridged
 * code's own (W44.A0XA replaced "Codes in Categories T15-T19": their initial encounters). A range read as text order
 * holds every 7th character between its ends: S06.A0XA took S06.890D's V58.89 (aftercare) and S06.890S's 907.0 (late
 * effect). Sources without a 7th character stay; when no source has the character, every row stays.
 */
function sameSeventh(rows: readonly GemRow[], code: string, first: string, last: string): readonly GemRow[] {
  const seventh = first.length === 7 && last.length === 7 && first[6] === last[6] ? first[6] : code.length === 7 ? code[6] : undefined;
  if (seventh === undefined) {
    return rows;
  }
  const kept = rows.filter((r) => r.source.length < 7 || r.source[6] === seventh);
  return kept.length > 0 ? kept : rows;
}

/**
 * Follows the CDC conversion table back from a current ICD-10-CM code until it reaches codes of the FY2018 GEM:
 * a previous code that is a GEM source; else one that was a header then (its billable codes under it are); else the
 * code that previous code replaced in turn. A range of previous codes takes every GEM source in the range.
 */
function bridgeByConversion(ctx: MappingContext, code: string): Bridge {
  const rows: ResolvedRow[] = [];
  const seenRows = new Set<string>();
  const sources = new Set<string>();
  const path: string[] = [];
  const visited = new Set<string>([code]);
  let newConcept: ConversionLink | undefined;
  let linked = false;

  const take = (gemRows: readonly GemRow[], hops: number): void => {
    for (const gem of gemRows) {
      sources.add(gem.source);
      // The same target with the same flags reached from two previous codes is one answer.
      const key = `${gem.target ?? ''}\u0000${gem.flags}`;
      if (!seenRows.has(key)) {
        seenRows.add(key);
        rows.push({ gem, hops });
      }
    }
  };

  const follow = (current: string, hops: number): void => {
    const links = ctx.ref.mapping.previousCodes(current);
    if (links.length === 0) {
      return;
    }
    linked = true;
    const named = links.filter((l) => l.previousCode !== null);
    if (named.length === 0) {
      newConcept ??= links[0];
      return;
    }
    const first = links[0];
    if (first) {
      path.push(
        `${dottedCode(CodeSystem.ICD10CM, current)} (effective ${first.effective}) replaced ${first.previousText}`,
      );
    }
    for (const link of named) {
      const previous = link.previousCode ?? '';
      if (link.previousLast !== null) {
        const inRange = ctx.ref.mapping.gemsBySourceRange('dx', 'backward', previous, link.previousLast);
        take(sameSeventh(inRange, current, previous, link.previousLast), hops);
        continue;
      }
      if (visited.has(previous)) {
        continue;
      }
      visited.add(previous);
      const direct = ctx.gemRows(GEM_SIDES.dxBackward, previous);
      if (direct.length > 0) {
        take(direct, hops);
        continue;
      }
      const before = rows.length;
      if (hops < MAX_HOPS) {
        follow(previous, hops + 1);
      }
      if (rows.length === before) {
        // A header in FY2018: the billable codes under it were the GEM sources.
        take(ctx.ref.mapping.gemsBySourceRange('dx', 'backward', previous, previous), hops);
      }
    }
  };

  follow(code, 1);
  if (rows.length > 0) {
    return { rows, gemSources: sources.size, path, reason: 'GEM_NOT_IN_GEM', explanation: '' };
  }
  if (newConcept) {
    const which =
      path.length === 0
        ? 'it as a new code'
        : `${dottedCode(CodeSystem.ICD10CM, newConcept.currentCode)} (reached by ${path.join('; ')}) as a new code`;
    return {
      rows,
      gemSources: 0,
      path,
      reason: 'GEM_NEW_CONCEPT',
      explanation:
        `is not in the FY2018 GEM and the CDC conversion table lists ${which} (effective ${newConcept.effective}) ` +
        'that replaced no earlier code: there is no ICD-9-CM equivalent to bridge to.',
    };
  }
  return {
    rows,
    gemSources: 0,
    path,
    reason: 'GEM_NOT_IN_GEM',
    explanation: linked
      ? `is not in the FY2018 GEM, and the conversion-table links (${path.join('; ')}) lead to no code that is.`
      : 'is not in the FY2018 GEM and has no entry in the CDC conversion table.',
  };
}
