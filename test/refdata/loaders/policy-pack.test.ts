// The policy-pack loader: the shipped sample packs are valid and load into the pack tables; a file named
// `*.policy.json` that is not a valid pack fails the build naming the file, the JSON path and zod's message; and the
// builder scans the project's packs folder (config `policiesDir`) as `policies/<name>`.
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { parsePolicyPack, policyPackLoader } from '../../../src/refdata/loaders/policy-pack.js';
import { buildFixture } from '../../helpers/build.js';

const preventive = readFileSync('samples/policies/medicare-preventive.policy.json', 'utf8');
const example = readFileSync('samples/policies/example-commercial.policy.json', 'utf8');

describe('policy-pack loader', () => {
  test('the shipped packs are valid; the commercial one is marked as an example', () => {
    const cms = parsePolicyPack(preventive, 'medicare-preventive.policy.json');
    expect(cms).toMatchObject({ id: 'CMS-PREVENTIVE', type: 'C', scope: { kind: 'national' } });
    expect(cms.rules.every((r) => r.citations.length > 0)).toBe(true);
    const commercial = parsePolicyPack(example, 'example-commercial.policy.json');
    expect(commercial).toMatchObject({ type: 'P', example: true, scope: { kind: 'payers', payers: ['EXAMPLE01'] } });
    expect(commercial.id).toMatch(/EXAMPLE/);
    expect(commercial.title).toMatch(/EXAMPLE/);
  });

  test('loads a pack into its tables, one source unit per pack named by the pack id', async () => {
    const build = await buildFixture({ 'packs/medicare-preventive.policy.json': preventive }, [policyPackLoader]);
    const db = build.open();
    try {
      expect(build.result.units.map((u) => [u.dataset, u.release])).toEqual([['policy-pack:CMS-PREVENTIVE', '2']]);
      expect(db.prepare('SELECT pack_id, type, scope_kind, example, valid_from FROM policy_pack').all()).toEqual([
        { pack_id: 'CMS-PREVENTIVE', type: 'C', scope_kind: 'national', example: 0, valid_from: '2011-01-01' },
      ]);
      // A rule's dates are its pack's narrowed by its own.
      expect(
        db
          .prepare(
            "SELECT rule_id, valid_from, valid_to FROM policy_pack_rule WHERE rule_id LIKE 'crc-mt-sdna%' ORDER BY 1",
          )
          .all(),
      ).toEqual([
        { rule_id: 'crc-mt-sdna', valid_from: '2023-01-01', valid_to: null },
        { rule_id: 'crc-mt-sdna-2014', valid_from: '2014-10-09', valid_to: '2022-12-31' },
      ]);
      expect(db.prepare("SELECT rule_id FROM policy_pack_procedure WHERE code_from = 'G0439'").all()).toEqual([
        { rule_id: 'awv-subsequent' },
      ]);
    } finally {
      db.close();
    }
  });

  test('a bad pack fails the build with file, JSON path and message', async () => {
    const bad = preventive.replace('"procedures": ["G0439"]', '"procedures": ["G04390"]');
    await expect(buildFixture({ 'bad.policy.json': bad }, [policyPackLoader])).rejects.toThrow(
      'bad.policy.json: rules.2.procedures.0: a 5-character CPT/HCPCS code or a range like "G0101-G0105"',
    );
    await expect(buildFixture({ 'x.policy.json': '{"format": "policy-pack/1",' }, [policyPackLoader])).rejects.toThrow(
      /^x\.policy\.json: not JSON/,
    );
    const twice = preventive.replace('"id": "awv-subsequent"', '"id": "awv-initial"');
    await expect(buildFixture({ 'twice.policy.json': twice }, [policyPackLoader])).rejects.toThrow(
      'twice.policy.json: rules.2.id: duplicate rule id "awv-initial"',
    );
  });

  test('the same pack id and version in two files fails the build', async () => {
    await expect(
      buildFixture({ 'a.policy.json': preventive, 'b.policy.json': preventive }, [policyPackLoader]),
    ).rejects.toThrow('b.policy.json: id: pack CMS-PREVENTIVE version 2 is already loaded from a.policy.json');
  });

  test('the builder loads the shipped packs from policiesDir as policies/<name>', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'policy-pack-'));
    const sourcesDir = join(dir, 'sources');
    await mkdir(sourcesDir);
    const result = await buildReference({
      sourcesDir,
      policiesDir: 'samples/policies',
      dbPath: join(dir, 'reference.sqlite'),
      loaders: [policyPackLoader],
    });
    expect(result.units.map((u) => [u.file, u.dataset])).toEqual([
      ['policies/medicare-preventive.policy.json', 'policy-pack:CMS-PREVENTIVE'],
      ['policies/example-commercial.policy.json', 'policy-pack:EXAMPLE-PAYER-PREVENTIVE'],
    ]);
  });
});
