// Policy packs (issue 11 rule 10; format in docs/policy-packs.md, schema in src/schemas/policy-pack.ts): every file
// named `*.policy.json` in the sources folder, and the packs shipped with the project under `samples/policies/`
// (config `policiesDir`, scanned by the builder as `policies/<name>`), one source unit per pack. A file with that
// name that is not a valid pack fails the build, naming the file, the JSON path and zod's message. Owns
// `policy_pack`, `policy_pack_scope`, `policy_pack_rule` (each rule's JSON as validated) and `policy_pack_procedure`
// (the rule's procedure codes and ranges, for the read side's index).
import type Database from 'better-sqlite3';
import { readFile } from 'node:fs/promises';
import { ReferenceDataError } from '../../errors.js';
import { PolicyPack, spanOf } from '../../schemas/policy-pack.js';
import type { Loader } from '../builder/types.js';

const ddl = `
CREATE TABLE IF NOT EXISTS policy_pack (
  pack_id TEXT NOT NULL,
  version TEXT NOT NULL,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  scope_kind TEXT NOT NULL,
  example INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL,
  PRIMARY KEY (pack_id, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS policy_pack_scope (
  pack_id TEXT NOT NULL,
  version TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (pack_id, version, value)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS policy_pack_rule (
  pack_id TEXT NOT NULL,
  version TEXT NOT NULL,
  rule_id TEXT NOT NULL,
  title TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  body TEXT NOT NULL,
  PRIMARY KEY (pack_id, version, rule_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS policy_pack_procedure (
  code_from TEXT NOT NULL,
  code_to TEXT NOT NULL,
  pack_id TEXT NOT NULL,
  version TEXT NOT NULL,
  rule_id TEXT NOT NULL,
  PRIMARY KEY (code_from, code_to, pack_id, version, rule_id)
) WITHOUT ROWID;
`;

/** Packs are small documents; anything bigger is not one. */
const MAX_BYTES = 4 * 1024 * 1024;

/** Whether a file's name says it is a policy pack. */
export const isPolicyPackName = (name: string): boolean => name.endsWith('.policy.json');

/**
 * Parses and checks one pack.
 * @param text - the file's contents
 * @param file - the name to report errors under
 * @throws ReferenceDataError `<file>: <json path>: <message>` for text that is not JSON or not a valid pack
 */
export function parsePolicyPack(text: string, file: string): PolicyPack {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ReferenceDataError({ file }, `not JSON: ${(err as Error).message}`, { cause: err });
  }
  const parsed = PolicyPack.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.length ? issue.path.join('.') : '(root)';
    throw new ReferenceDataError({ file }, `${path}: ${issue?.message ?? 'invalid policy pack'}`);
  }
  return parsed.data;
}

const later = (a: string, b: string | undefined): string => (b !== undefined && b > a ? b : a);
const earlier = (a: string | undefined, b: string | undefined): string | undefined =>
  a === undefined ? b : b === undefined ? a : a < b ? a : b;

/**
 * Inserts a parsed pack; returns the number of rows written.
 * @throws ReferenceDataError when the same pack id and version is already loaded from another file
 */
export function insertPolicyPack(db: Database.Database, sourceId: number, pack: PolicyPack, file: string): number {
  const loaded = db
    .prepare(
      `SELECT s.file FROM policy_pack p JOIN source s ON s.id = p.source_id WHERE p.pack_id = ? AND p.version = ?`,
    )
    .get(pack.id, pack.version) as { file: string } | undefined;
  if (loaded !== undefined) {
    throw new ReferenceDataError(
      { file },
      `id: pack ${pack.id} version ${pack.version} is already loaded from ${loaded.file}`,
    );
  }
  db.prepare(
    `INSERT INTO policy_pack (pack_id, version, type, title, scope_kind, example, valid_from, valid_to, source_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    pack.id,
    pack.version,
    pack.type,
    pack.title,
    pack.scope.kind,
    pack.example === true ? 1 : 0,
    pack.effective.from,
    pack.effective.to ?? null,
    sourceId,
  );
  let rows = 1;
  const scope = db.prepare('INSERT OR IGNORE INTO policy_pack_scope (pack_id, version, value) VALUES (?, ?, ?)');
  const values =
    pack.scope.kind === 'contractors' ? pack.scope.contractors : pack.scope.kind === 'payers' ? pack.scope.payers : [];
  for (const value of values) {
    rows += scope.run(pack.id, pack.version, value).changes;
  }
  const rule = db.prepare(
    `INSERT INTO policy_pack_rule (pack_id, version, rule_id, title, valid_from, valid_to, body)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const procedure = db.prepare(
    `INSERT OR IGNORE INTO policy_pack_procedure (code_from, code_to, pack_id, version, rule_id) VALUES (?, ?, ?, ?, ?)`,
  );
  for (const r of pack.rules) {
    // A rule is in force within its pack's dates, narrowed by its own.
    const from = later(pack.effective.from, r.effective?.from);
    const to = earlier(pack.effective.to, r.effective?.to);
    rule.run(pack.id, pack.version, r.id, r.title, from, to ?? null, JSON.stringify(r));
    rows++;
    for (const p of r.procedures) {
      const span = spanOf(p);
      rows += procedure.run(span.from, span.to, pack.id, pack.version, r.id).changes;
    }
  }
  return rows;
}

export const policyPackLoader: Loader = {
  name: 'policy-pack',
  version: 1,
  ddl,
  async recognise(file) {
    if (!isPolicyPackName(file.name)) {
      return [];
    }
    if (file.size > MAX_BYTES) {
      throw new ReferenceDataError(
        { file: file.relPath },
        `a policy pack of ${file.size} bytes: packs are small JSON documents`,
      );
    }
    // The name claims a pack, so the content must be one: a bad pack fails the build rather than being skipped.
    const pack = parsePolicyPack(await readFile(file.path, 'utf8'), file.relPath);
    return [
      {
        dataset: `policy-pack:${pack.id}`,
        release: pack.version,
        validFrom: pack.effective.from,
        validTo: pack.effective.to,
      },
    ];
  },
  async load(ctx) {
    const parts: Buffer[] = [];
    for await (const chunk of (await ctx.open()) as AsyncIterable<Buffer>) {
      parts.push(chunk);
    }
    const pack = parsePolicyPack(Buffer.concat(parts).toString('utf8'), ctx.file.relPath);
    ctx.progress.add(insertPolicyPack(ctx.db, ctx.sourceId, pack, ctx.file.relPath));
  },
};
