// docs/engines.md's tables of reason codes, mapping messages and the confidence scale, docs/rules.md's tables of
// validation rules and finding codes, and docs/scrubber.md's claim CSV contract are generated from the registries in the engines (style.md guideline 6).
// This test renders them and fails when a committed copy differs;
// `UPDATE_README=1 npx vitest run --config .ci/vitest.config.ts test/docs` rewrites the generated blocks.
import { readFileSync, writeFileSync } from 'node:fs';
import { CLAIM_CSV_COLUMNS, ClaimCsvRow, REQUIRED_CLAIM_CSV_COLUMNS } from '../../src/schemas/claim-csv.js';
import { describe, expect, test } from 'vitest';
import { CODE_REASONS } from '../../src/engines/codes/index.js';
import { CONFIDENCE, MAP_MESSAGE_CODES } from '../../src/engines/mapping/index.js';
import { BATCH_RULES, RULES } from '../../src/engines/validation/index.js';
import { FindingCodes } from '../../src/findings/codes.js';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const readmeBlocks: Record<string, () => string> = {
  'code-reasons': () =>
    [
      '| reason code | invalidReason | meaning |',
      '|---|---|---|',
      ...Object.entries(CODE_REASONS).map(([code, r]) => `| \`${code}\` | ${r.invalidReason ?? '(not decided)'} | ${cell(r.meaning)} |`),
    ].join('\n'),
  'map-messages': () =>
    ['| message code | meaning |', '|---|---|', ...Object.entries(MAP_MESSAGE_CODES).map(([code, m]) => `| \`${code}\` | ${cell(m)} |`)].join('\n'),
  confidence: () =>
    [
      '| factor | weight |',
      '|---|---|',
      `| start: exact, both directions agree, sole target, code in the FY2018 GEM | ${CONFIDENCE.start} |`,
      `| the GEM marks the pair approximate | ${CONFIDENCE.approximate} |`,
      `| the opposite GEM does not map the target back to the source | ${CONFIDENCE.notBidirectional} |`,
      `| each competing alternative, up to ${CONFIDENCE.maxAlternatives} | ${CONFIDENCE.perAlternative} each |`,
      `| each conversion-table hop, up to ${CONFIDENCE.maxHops} | ${CONFIDENCE.perHop} each |`,
      `| the bridge reached several GEM codes (range, header, several previous codes) | ${CONFIDENCE.fanOut} |`,
    ].join('\n'),
};

const rulesBlocks: Record<string, () => string> = {
  'validation-rules': () =>
    [
      '| rule | what it checks | datasets | finding codes |',
      '|---|---|---|---|',
      // The claim rules in run order, then the batch checks the scrubber runs across a run's claims.
      ...[...RULES, ...BATCH_RULES].map(
        (r) =>
          `| \`${r.id}\` | ${cell(r.checks)} | ${r.datasets.map((d) => `\`${d}\``).join(', ')} | ${r.codes.map((c) => `\`${c}\``).join(', ')} |`,
      ),
    ].join('\n'),
  'finding-codes': () =>
    [
      '| finding code | rule | severity | meaning |',
      '|---|---|---|---|',
      ...Object.entries(FindingCodes).map(
        ([code, f]) => `| \`${code}\` | \`${f.rule}\` | ${f.severity} | ${cell(f.meaning)} |`,
      ),
    ].join('\n'),
};

function render(text: string, blocks: Record<string, () => string>): string {
  let out = text;
  for (const [name, make] of Object.entries(blocks)) {
    const re = new RegExp(`(<!-- generated:${name} -->\\n)[\\s\\S]*?(<!-- /generated:${name} -->)`);
    expect(re.test(out), `the file has the block ${name}`).toBe(true);
    out = out.replace(re, (_m, open: string, close: string) => `${open}${make()}\n${close}`);
  }
  return out;
}

const scrubberBlocks: Record<string, () => string> = {
  'claim-csv-columns': () =>
    [
      '| column | required | level and meaning |',
      '|---|---|---|',
      ...CLAIM_CSV_COLUMNS.map(
        (c) =>
          `| \`${c}\` | ${REQUIRED_CLAIM_CSV_COLUMNS.includes(c) ? 'yes' : ''} | ${cell(ClaimCsvRow.shape[c].description ?? '')} |`,
      ),
    ].join('\n'),
};

describe.each([
  { file: 'docs/engines.md', blocks: readmeBlocks },
  { file: 'docs/rules.md', blocks: rulesBlocks },
  { file: 'docs/scrubber.md', blocks: scrubberBlocks },
])('$file generated tables', ({ file, blocks }) => {
  test('match the registries they are generated from', () => {
    const text = readFileSync(file, 'utf8');
    const expected = render(text, blocks);
    if (process.env['UPDATE_README'] === '1') {
      writeFileSync(file, expected);
    }
    expect(text).toBe(expected);
  });
});
