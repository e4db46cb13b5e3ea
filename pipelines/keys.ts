// `npm run keys -- <create|list|revoke>`: issues, lists and revokes API keys in the application database.
// Parses argv, loads the configuration and calls src/accounts; no logic of its own beyond printing. A new key's
// secret is printed once, on stdout, and never logged; `list` never shows secrets.
import { parseArgs } from 'node:util';
import { openAccounts, type Accounts } from '../src/accounts/index.js';
import { loadConfig } from '../src/config.js';
import { ScrubberError } from '../src/errors.js';
import { createLogger } from '../src/log.js';

const usage = `usage: npm run keys -- <verb> [options]
  create --user NAME [--entity N] [--json]   issue a key (a new top-level entity when --entity is not given);
                                             prints the key and its secret once ({ apiKey, secret, entityId } with --json)
  list [--json]                              every key with its user, entity and state; never secrets
  revoke KEY                                 revoke a key and end its sessions
The database is APP_DB (default data/build/app.sqlite).`;

const date = (ms: number | null): string => (ms === null ? '' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function run(
  accounts: Accounts,
  verb: string,
  values: { user?: string; entity?: string; json: boolean },
  positionals: string[],
): number {
  switch (verb) {
    case 'create': {
      if (values.user === undefined || positionals.length > 0) {
        process.stderr.write(`${usage}\n`);
        return 2;
      }
      let entityId: number | undefined;
      if (values.entity !== undefined) {
        if (!/^\d+$/.test(values.entity)) {
          process.stderr.write(`keys: --entity must be an entity id (a positive integer), got '${values.entity}'\n`);
          return 2;
        }
        entityId = Number(values.entity);
      }
      const created = accounts.createApiKey(
        entityId === undefined ? { userName: values.user } : { userName: values.user, entityId },
      );
      if (!created.ok) {
        process.stderr.write(`keys: ${created.message}\n`);
        return 1;
      }
      const { apiKey, secret } = created.value;
      if (values.json) {
        process.stdout.write(`${JSON.stringify({ apiKey, secret, entityId: created.value.entityId })}\n`);
      } else {
        process.stdout.write(
          `${table([
            ['apiKey', apiKey],
            ['secret', secret],
            ['entityId', String(created.value.entityId)],
          ])}\n`,
        );
        process.stderr.write('The secret is shown only this once: store it now.\n');
      }
      return 0;
    }
    case 'list': {
      const keys = accounts.listApiKeys();
      if (values.json) {
        process.stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
        return 0;
      }
      const rows = [['apiKey', 'userName', 'entityId', 'created', 'revoked']];
      for (const k of keys) {
        rows.push([k.apiKey, k.userName, String(k.entityId), date(k.createdAt), date(k.revokedAt)]);
      }
      process.stdout.write(`${table(rows)}\n`);
      return 0;
    }
    case 'revoke': {
      const [apiKey, ...extra] = positionals;
      if (apiKey === undefined || extra.length > 0) {
        process.stderr.write(`${usage}\n`);
        return 2;
      }
      const revoked = accounts.revokeApiKey(apiKey);
      if (!revoked.ok) {
        process.stderr.write(`keys: ${revoked.message}\n`);
        return 1;
      }
      process.stdout.write(`revoked ${apiKey} at ${date(revoked.value.revokedAt)}\n`);
      return 0;
    }
    default:
      process.stderr.write(`${usage}\n`);
      return verb === '--help' ? 0 : 2;
  }
}

function main(argv: string[]): number {
  const [verb, ...rest] = argv;
  if (verb === undefined || !['create', 'list', 'revoke'].includes(verb)) {
    process.stderr.write(`${usage}\n`);
    return verb === undefined || verb === '--help' ? 0 : 2;
  }
  const { values, positionals } = parseArgs({
    args: rest,
    options: {
      user: { type: 'string' },
      entity: { type: 'string' },
      json: { type: 'boolean', default: false },
      'log-level': { type: 'string' },
    },
    allowPositionals: true,
    strict: true,
  });
  const config = loadConfig(values['log-level'] === undefined ? [] : ['--log-level', values['log-level']]);
  const log = createLogger(config).child({ component: 'keys' });
  // Only the verb and the database are logged: never the secret, nor the arguments wholesale.
  log.debug({ verb, db: config.appDb }, 'keys');
  const accounts = openAccounts(config.appDb);
  try {
    return run(accounts, verb, values, positionals);
  } finally {
    accounts.close();
  }
}

try {
  process.exitCode = main(process.argv.slice(2));
} catch (err) {
  const known = err instanceof ScrubberError || err instanceof TypeError;
  process.stderr.write(`keys: ${known ? err.message : String((err as Error).stack ?? err)}\n`);
  process.exitCode = known && err instanceof TypeError ? 2 : 1;
}
