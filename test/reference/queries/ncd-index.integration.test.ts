// The in-memory lab NCD ICD-10 lists (edits.ncdIcd10Resolution) against the one-query-per-pair SQL they replaced, on
// the full reference database: every listed code of every NCD, and codes the NCDs do not list, on dates across the
// releases, must resolve to the same row.
import { expect, test } from 'vitest';
import { sharedReferenceAndSql } from '../../helpers/reference-db.js';

const shared = sharedReferenceAndSql();

test('every (NCD, code) pair on dates across releases: the same answer as the SQL it replaced', () => {
  const { db, ref } = shared;
  const sql = db.prepare(
    `SELECT i.ncd, i.icd10, i.resolution, i.valid_from AS validFrom, i.valid_to AS validTo, s.release
     FROM ncd_lab_icd10 i JOIN source s ON s.id = i.source_id AND s.valid_from <= @date AND (s.valid_to IS NULL OR s.valid_to >= @date)
     WHERE i.ncd = @ncd AND i.icd10 IN (@code, '@@@@@@@') AND i.valid_from <= @date AND (i.valid_to IS NULL OR i.valid_to >= @date)
     ORDER BY i.icd10 = '@@@@@@@', i.valid_from DESC LIMIT 1`,
  );
  const ncds = db.prepare('SELECT DISTINCT ncd FROM ncd_lab_icd10').pluck().all() as string[];
  const bounds = db
    .prepare("SELECT DISTINCT valid_from FROM source WHERE dataset LIKE 'ncd-lab%' UNION SELECT DISTINCT valid_from FROM ncd_lab_icd10")
    .pluck()
    .all() as string[];
  // Each interval start, the day before it, and dates outside every release.
  const dates = [...new Set([...bounds, ...bounds.map((d) => new Date(Date.parse(d) - 86_400_000).toISOString().slice(0, 10)), '2001-01-01', '2099-12-31'])];
  const unlisted = ['E119', 'I10', 'Z0000', 'R3915', 'S72001A', 'NOPE'];
  const wrong: string[] = [];
  let compared = 0;
  let found = 0;
  for (const ncd of ncds) {
    const codes = [...(db.prepare('SELECT DISTINCT icd10 FROM ncd_lab_icd10 WHERE ncd = ? ORDER BY icd10').pluck().all(ncd) as string[]).filter((_, i) => i % 7 === 0), ...unlisted];
    for (const code of codes) {
      for (const date of dates) {
        const want = sql.get({ ncd, code, date }) as { icd10: string; resolution: number; validFrom: string; validTo: string | null; release: string } | undefined;
        const got = ref.edits.ncdIcd10Resolution(ncd, code, date);
        compared++;
        const same =
          want === undefined
            ? got === undefined
            : got !== undefined &&
              got.resolution === want.resolution &&
              got.validFrom === want.validFrom &&
              got.validTo === want.validTo &&
              got.release === want.release &&
              got.matched === (want.icd10 === '@@@@@@@' ? 'all-other' : 'listed');
        if (!same) {
          wrong.push(`${ncd} ${code} ${date}: ${JSON.stringify(got)} vs ${JSON.stringify(want)}`);
        }
        found += want === undefined ? 0 : 1;
      }
    }
  }
  expect(wrong.slice(0, 10)).toEqual([]);
  expect(ncds.length).toBeGreaterThan(20);
  expect(found).toBeGreaterThan(1000);
  expect(compared).toBeGreaterThan(found);
}, 300_000);
