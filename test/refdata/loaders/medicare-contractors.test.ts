import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  CONTRACTORS_FILE,
  loadContractors,
  medicareContractorsLoader,
  parseContractors,
} from '../../../src/refdata/loaders/medicare-contractors.js';
import { buildFixture } from '../../helpers/build.js';

const committed = readFileSync(CONTRACTORS_FILE, 'utf8');

describe('medicare-contractors', () => {
  test('the committed file is valid and every fact cites a listed CMS source', () => {
    const data = parseContractors(committed, 'data/reference/medicare-contractors.json');
    expect(
      data.sources.every((s) =>
        /^https?:\/\/([a-z.]*cms\.gov|cybercemetery\.unt\.edu\/archive\/[^/]+\/\d+\/https?:\/\/www\.cms\.gov)\//.test(
          s.url,
        ),
      ),
    ).toBe(true);
    expect(data.abJurisdictions.map((j) => j.jurisdiction)).toEqual(['J5', 'J6', 'J8', 'J15', 'JE', 'JL']);
  });

  test('rejects a fact whose source is not listed, naming where', () => {
    const broken = committed.replace('"source": "cms-locality-key-2024"', '"source": "somewhere"');
    expect(() => parseContractors(broken, 'x.json')).toThrow(
      'x.json: partBContractorNumbers.0.source: "somewhere" is not one of the listed sources',
    );
    expect(() =>
      parseContractors(committed.replace('"contractorNumber": "10112"', '"contractorNumber": "1011"'), 'x.json'),
    ).toThrow('x.json: partBContractorNumbers.0.contractorNumber');
  });

  test('loadContractors creates the tables and loads the committed file into any database', () => {
    const db = new Database(':memory:');
    const rows = loadContractors(db, 7);
    expect(rows).toBe(
      (
        db
          .prepare(
            'SELECT (SELECT count(*) FROM medicare_jurisdiction) + (SELECT count(*) FROM medicare_jurisdiction_state) + (SELECT count(*) FROM medicare_contractor_number) AS n',
          )
          .get() as { n: number }
      ).n,
    );
    expect(
      db.prepare("SELECT contractor_number, part, area FROM medicare_contractor_number WHERE state = 'AL'").all(),
    ).toEqual([{ contractor_number: '10112', part: 'B', area: 'all counties (statewide)' }]);
    expect(
      db
        .prepare(
          "SELECT kind, jurisdiction, mac_name, as_of, source_id FROM medicare_jurisdiction_state JOIN medicare_jurisdiction USING (kind, jurisdiction, as_of, source_id) WHERE state = 'KY' ORDER BY kind",
        )
        .all(),
    ).toEqual([
      { kind: 'AB', jurisdiction: 'J15', mac_name: 'CGS Administrators, LLC', as_of: '2023-11-30', source_id: 7 },
    ]);
    db.close();
  });

  test('the loader takes the file from a sources folder and fails with the file name on a bad one', async () => {
    const build = await buildFixture({ 'reference/medicare-contractors.json': committed }, [medicareContractorsLoader]);
    // The release is the file's "compiled" date (2026-11-25, when the JL, DME and HH&H facts were added).
    expect(build.result.units.map((u) => [u.dataset, u.release])).toEqual([['medicare-contractors', '2026-11-25']]);
    const db = build.open();
    expect(
      db.prepare("SELECT jurisdiction FROM medicare_jurisdiction_state WHERE kind = 'DME' AND state = 'HI'").all(),
    ).toEqual([{ jurisdiction: 'D' }]);
    db.close();
    const bad = committed.replace('"states": ["IN", "MI"]', '"states": ["Indiana"]');
    await expect(
      buildFixture({ 'reference/medicare-contractors.json': bad }, [medicareContractorsLoader]),
    ).rejects.toThrow('reference/medicare-contractors.json: abJurisdictions.2.states.0');
  });
});
