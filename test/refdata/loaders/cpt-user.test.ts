// CPT descriptors are AMA content: these fixtures carry CPT numbers with invented descriptors only (domain.md §6).
import { describe, expect, test } from 'vitest';
import { cptUserLoader, parseCptRecord } from '../../../src/refdata/loaders/cpt-user.js';
import { buildFixture } from '../../helpers/build.js';

const header = 'code,short,long,validFrom,validTo';
const csv = (lines: string[], head = header): string => `${[head, ...lines].join('\r\n')}\r\n`;

describe('cpt-user loader', () => {
  test('validates the code shape, the dates and the descriptors of a record', () => {
    expect(parseCptRecord(['99213', 'Fixture short A', 'Fixture long A', '2025-01-01', ''])).toEqual({
      code: '99213',
      short: 'Fixture short A',
      long: 'Fixture long A',
      validFrom: '2025-01-01',
      validTo: null,
    });
    expect(parseCptRecord(['0001u', 'Fixture PLA', '', '2025-04-01', '2025-12-31'])).toMatchObject({
      code: '0001U',
      long: null,
      validTo: '2025-12-31',
    });
    expect(parseCptRecord(['1234F', '', 'Fixture category II', '2025-01-01', ''])).toMatchObject({
      code: '1234F',
      short: null,
    });
    expect(parseCptRecord(['9921', 'x', 'x', '2025-01-01', ''])).toMatch(/"9921" is not a CPT code/);
    expect(parseCptRecord(['J1100', 'x', 'x', '2025-01-01', ''])).toMatch(/is not a CPT code/);
    expect(parseCptRecord(['0002X', 'x', 'x', '2025-01-01', ''])).toMatch(/is not a CPT code/);
    expect(parseCptRecord(['99213', '', '', '2025-01-01', ''])).toMatch(/neither a short nor a long descriptor/);
    expect(parseCptRecord(['99213', 'x', 'x', '2025-02-30', ''])).toMatch(/validFrom "2025-02-30" is not a date/);
    expect(parseCptRecord(['99213', 'x', 'x', '01/01/2025', ''])).toMatch(/validFrom "01\/01\/2025" is not a date/);
    expect(parseCptRecord(['99213', 'x', 'x', '2025-01-01', '2024-12-31'])).toMatch(
      /validTo 2024-12-31 is before validFrom 2025-01-01/,
    );
    expect(parseCptRecord(['99213', 'x', 'x', '2025-01-01'])).toMatch(/expected 5 fields/);
  });

  test('loads rows straight into the code table with their own dates and the unit as provenance', async () => {
    const build = await buildFixture(
      {
        'user/cpt-2025.csv': `\ufeff${csv([
          '99213,Fixture short A,"Fixture long A, with a comma",2024-01-01,2024-12-31',
          '99213,Fixture short A2,Fixture long A2,2025-01-01,',
          '0001U,Fixture PLA,,2025-04-01,',
          '1234F,Fixture cat II,Fixture category II,2025-01-01',
        ])}`,
      },
      [cptUserLoader],
    );
    const db = build.open();
    const source = db.prepare('SELECT id, dataset, release, valid_from, rows FROM source').get() as { id: number };
    expect(source).toMatchObject({ dataset: 'cpt-user', release: 'cpt-2025', valid_from: '2024-01-01', rows: 4 });
    expect(
      db
        .prepare(
          "SELECT code, valid_from, valid_to, billable, short_title, long_title, first_source_id, last_source_id FROM code WHERE system = 'CPT' ORDER BY code, valid_from",
        )
        .all(),
    ).toEqual([
      {
        code: '0001U',
        valid_from: '2025-04-01',
        valid_to: null,
        billable: 1,
        short_title: 'Fixture PLA',
        long_title: null,
        first_source_id: source.id,
        last_source_id: source.id,
      },
      {
        code: '1234F',
        valid_from: '2025-01-01',
        valid_to: null,
        billable: 1,
        short_title: 'Fixture cat II',
        long_title: 'Fixture category II',
        first_source_id: source.id,
        last_source_id: source.id,
      },
      {
        code: '99213',
        valid_from: '2024-01-01',
        valid_to: '2024-12-31',
        billable: 1,
        short_title: 'Fixture short A',
        long_title: 'Fixture long A, with a comma',
        first_source_id: source.id,
        last_source_id: source.id,
      },
      {
        code: '99213',
        valid_from: '2025-01-01',
        valid_to: null,
        billable: 1,
        short_title: 'Fixture short A2',
        long_title: 'Fixture long A2',
        first_source_id: source.id,
        last_source_id: source.id,
      },
    ]);
    db.close();
  });

  test('accepts the domain.md header spelling too', async () => {
    const build = await buildFixture(
      {
        'cpt.csv': csv(
          ['99213,Fixture short,Fixture long,2025-01-01,'],
          'code,shortDescription,longDescription,effectiveDate,terminationDate',
        ),
      },
      [cptUserLoader],
    );
    expect(build.result.units.map((u) => [u.dataset, u.release])).toEqual([['cpt-user', 'cpt']]);
  });

  test.each([
    ['a bad code', '9921,Fixture,Fixture,2025-01-01,', /cpt-bad\.csv:3: code "9921" is not a CPT code/],
    [
      'a bad date',
      '99214,Fixture,Fixture,2025-13-01,',
      /cpt-bad\.csv:3: code 99214: validFrom "2025-13-01" is not a date/,
    ],
    ['too many fields', '99214,Fixture,Fixture,2025-01-01,,extra', /cpt-bad\.csv:3: expected 5 fields/],
    ['an unclosed quote', '99214,"Fixture,Fixture,2025-01-01,', /cpt-bad\.csv:3: not valid CSV/],
    [
      'overlapping dates of one code',
      '99213,Fixture,Fixture,2025-06-01,',
      /cpt-bad\.csv:3: code 99213: dates overlap the row on line 2/,
    ],
  ])('fails the build with file and line on %s', async (_what, line, message) => {
    await expect(
      buildFixture({ 'cpt-bad.csv': csv(['99213,Fixture,Fixture,2025-01-01,', line]) }, [cptUserLoader]),
    ).rejects.toThrow(message);
  });

  test('skips CSV files with another name or another header', async () => {
    const build = await buildFixture(
      {
        'descriptors.csv': csv(['99213,Fixture,Fixture,2025-01-01,']),
        'cpt-codes.csv': csv(['99213,Fixture,Fixture,2025-01-01,'], 'code,description,validFrom,validTo'),
        'cpt-upper.csv': csv(['99213,Fixture,Fixture,2025-01-01,'], 'Code,Short,Long,ValidFrom,ValidTo'),
      },
      [cptUserLoader],
    );
    expect(build.result.units).toEqual([]);
    expect(build.result.skipped.map((s) => s.file)).toEqual(['cpt-codes.csv', 'cpt-upper.csv', 'descriptors.csv']);
  });
});
