// The NLP index's shapes (operations.md "NLP index"; issue 14): the request, the mention the engine finds, and the
// string-to-string map the wire answers with. One mention type here; the engine and the operation both use it.
import { z } from 'zod';

/** Default text limit of DocumentV2 (operations.md: "Text over the size limit (default 100 KB) → 413"). */
export const NLP_MAX_TEXT_BYTES = 100 * 1024;

export const DocumentV2 = z
  .object({
    text: z.string().optional().describe('The clinical text (at most 100 KB of UTF-8); empty gives an empty result.'),
  })
  .meta({ id: 'DocumentV2' });
export type DocumentV2 = z.infer<typeof DocumentV2>;

/** What a mention names. */
export const MentionCategory = z.enum(['condition', 'procedure', 'medication', 'anatomy']);
export type MentionCategory = z.infer<typeof MentionCategory>;

/** An assertion attribute's value: `not-assessed` where no rule of the engine applies to the mention's category. */
export const AssertionValue = z.enum(['true', 'false', 'not-assessed']);
export type AssertionValue = z.infer<typeof AssertionValue>;

/** One mention as the engine returns it (typed); {@link mentionMap} turns it into the wire's map. */
export interface Mention {
  readonly text: string;
  /** Character offsets into the request text: `text.slice(begin, end)` is the mention. */
  readonly begin: number;
  readonly end: number;
  readonly category: MentionCategory;
  /** As the code set prints it (dotted ICD-10-CM); empty for a medication (the Drug table names no code for a drug). */
  readonly code: string;
  /** `ICD-10 CM`, `ICD-10 PCS`, or `ICD-10-CM Table of Drugs` for medications. */
  readonly codeSet: string;
  readonly description: string;
  /** 0-1: how direct the matched entry is, less for a single word and for a code left unspecific (docs/nlp.md). */
  readonly score: number;
  readonly negated: AssertionValue;
  readonly uncertain: AssertionValue;
  readonly historical: AssertionValue;
  readonly family: AssertionValue;
  /** The note section the mention stands in, when the text has section headings. */
  readonly section?: string | undefined;
  /** Other candidate codes: the billable codes under a category the text does not make specific. */
  readonly alternatives: readonly string[];
}

/** The wire's item: every value a string (operations.md). */
export const MentionMap = z.record(z.string(), z.string());
export type MentionMap = z.infer<typeof MentionMap>;

/** Scores as the wire writes them (two decimals): an entry's score is one of a few dozen values, formatted once. */
const scoreTexts = new Map<number, string>();
function scoreText(score: number): string {
  let text = scoreTexts.get(score);
  if (text === undefined) {
    text = score.toFixed(2);
    if (scoreTexts.size < 1024) {
      scoreTexts.set(score, text);
    }
  }
  return text;
}

/** A mention as the wire's string→string map, keys in the order operations.md lists them. */
export function mentionMap(m: Mention): MentionMap {
  const map: MentionMap = {
    text: m.text,
    begin: String(m.begin),
    end: String(m.end),
    category: m.category,
    code: m.code,
    codeSet: m.codeSet,
    description: m.description,
    score: scoreText(m.score),
    negated: m.negated,
    uncertain: m.uncertain,
    historical: m.historical,
    family: m.family,
  };
  if (m.section !== undefined) {
    map['section'] = m.section;
  }
  if (m.alternatives.length > 0) {
    map['alternatives'] = m.alternatives.join('|');
  }
  return map;
}
