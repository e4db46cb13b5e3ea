// `npm run keys` end to end, as an operator runs it: create (text and --json), list without secrets, revoke, and
// the errors for an unknown entity or key. The database is a temp file named by APP_DB.
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, test } from 'vitest';
import { openAccounts } from '../../src/accounts/index.js';
import { tempAppDbPath } from '../helpers/accounts.js';

let appDb = '';

const keys = (...args: string[]): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'pipelines/keys.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, APP_DB: appDb, LOG_LEVEL: 'debug' },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

beforeEach(async () => {
  appDb = await tempAppDbPath('keys-cli-');
});

describe('npm run keys', () => {
  test('create --json prints the key, its secret and a new top-level entity; list shows no secret; revoke ends it', () => {
    const created = keys('create', '--user', 'alice', '--json');
    expect(created.status).toBe(0);
    const json = JSON.parse(created.stdout) as { apiKey: string; secret: string; entityId: number };
    expect(Object.keys(json)).toEqual(['apiKey', 'secret', 'entityId']);
    expect(json.apiKey).toMatch(/^ak_[A-Za-z0-9_-]{16}$/);
    expect(json.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(json.entityId).toBe(1);
    // The secret is printed once on stdout and is nowhere in the (debug-level) log on stderr.
    expect(created.stderr).not.toContain(json.secret);

    const list = keys('list', '--json');
    expect(list.status).toBe(0);
    expect(list.stdout).not.toContain(json.secret);
    expect(list.stderr).not.toContain(json.secret);
    expect(JSON.parse(list.stdout)).toEqual([
      { apiKey: json.apiKey, userName: 'alice', entityId: 1, createdAt: expect.any(Number) as number, revokedAt: null },
    ]);

    const revoked = keys('revoke', json.apiKey);
    expect(revoked.status).toBe(0);
    expect(revoked.stdout).toMatch(new RegExp(`^revoked ${json.apiKey} at \\d{4}-`));
    const after = openAccounts(appDb);
    expect(after.getApiKey(json.apiKey)?.revokedAt).toEqual(expect.any(Number));
    after.close();
    expect(keys('list').stdout).toMatch(new RegExp(`${json.apiKey}\\s+alice\\s+1\\s+\\S+Z\\s+\\S+Z`));
  });

  test('create for an existing entity; text output names key, secret and entity, with the warning on stderr', () => {
    const first = JSON.parse(keys('create', '--user', 'alice', '--json').stdout) as { entityId: number };
    const second = keys('create', '--user', 'bob', '--entity', String(first.entityId));
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/^apiKey\s+ak_\S+\nsecret\s+\S{43}\nentityId\s+1\n$/);
    expect(second.stderr).toContain('shown only this once');
    const accounts = openAccounts(appDb);
    expect(accounts.listEntities()).toHaveLength(1);
    expect(accounts.listApiKeys().map((k) => [k.userName, k.entityId])).toEqual([
      ['alice', 1],
      ['bob', 1],
    ]);
    accounts.close();
  });

  test('an unknown entity or key fails with exit 1; bad usage with exit 2', () => {
    const noEntity = keys('create', '--user', 'carol', '--entity', '7');
    expect(noEntity.status).toBe(1);
    expect(noEntity.stderr).toContain('Entity 7 does not exist.');
    expect(noEntity.stdout).toBe('');
    const noKey = keys('revoke', 'ak_missing');
    expect(noKey.status).toBe(1);
    expect(noKey.stderr).toContain("API key 'ak_missing' does not exist.");
    expect(keys('create').status).toBe(2);
    expect(keys('create', '--user', 'x', '--entity', 'one').status).toBe(2);
    expect(keys('frobnicate').status).toBe(2);
    expect(keys('create', '--user', ' ').status).toBe(1);
  });
});
