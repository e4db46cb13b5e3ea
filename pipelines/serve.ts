// `npm run serve -- [--port 8080] [--host 127.0.0.1] [--no-auth] [--log-level L] [--warm search,nlp]`: the only
// listen() of the project.
// Parses argv, loads the configuration, opens the application database (APP_DB; migrations run, the dashboard
// content is loaded), builds the server, prints one line `listening on http://HOST:PORT` on stdout once it accepts
// requests, and shuts down gracefully on SIGTERM/SIGINT: in-flight requests get 10 s, then usage counts are
// flushed and the databases are closed.
//
// The reference database (config `refdataDb`, REFDATA_DB) is opened read-only. When it is missing or was built by
// another schema version the server still starts, logs a warning naming the reason, and the operations and FHIR
// routes that read it (GemsMap, ProprietaryMap, PrimaryLookup, ProcedureCodeItemData, CodeDetails, /fhir/…) answer
// 503 ServiceUnavailable until it is built and the server restarted; accounts and content operations keep working.
// `--warm search,nlp` (HTTP_WARM) builds the search index and the NLP dictionary before listening.
import { createServer, type AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { createRateLimiter, openAccounts, readDashboardFile } from '../src/accounts/index.js';
import { loadConfig } from '../src/config.js';
import { ScrubberError } from '../src/errors.js';
import { buildServer } from '../src/http/server.js';
import { warmIndexes } from '../src/http/warm-indexes.js';
import { createLogger } from '../src/log.js';
import { openReference, type Reference } from '../src/reference/index.js';

const usage = 'usage: npm run serve -- [--port 8080] [--host 127.0.0.1] [--no-auth] [--log-level info] [--warm search,nlp]\n';
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * With `--port 0`, the free port the OS picks, found before the configuration is built so the public URLs it
 * derives (Hello's apiUrl and webRoot, the DTOs' base URL) name the real port rather than 0.
 */
async function freePort(host: string): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function main(argv: string[]): Promise<void> {
  parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      'no-auth': { type: 'boolean' },
      'log-level': { type: 'string' },
      warm: { type: 'string' },
    },
    strict: true,
  });
  const asked = loadConfig(argv);
  const config = asked.http.port === 0 ? loadConfig([...argv, '--port', String(await freePort(asked.http.host))]) : asked;
  const root = createLogger(config);
  const log = root.child({ component: 'serve' });
  const accounts = openAccounts(config.appDb, {
    dashboard: readDashboardFile(config.dashboardFile),
    usage: { onFlushError: (err) => log.error({ err }, 'usage counts could not be written; kept for the next flush') },
  });
  let reference: Reference | undefined;
  try {
    reference = openReference(config.refdataDb);
    const started = performance.now();
    reference.load();
    log.info({ ms: Math.round(performance.now() - started) }, 'reference lookup tables read into memory');
  } catch (err) {
    if (!(err instanceof ScrubberError)) {
      throw err;
    }
    log.warn({ reason: err.message }, 'no reference database: code and mapping operations will answer 503');
  }
  if (reference !== undefined) {
    for (const { index, ms } of warmIndexes(reference, config.http.warm ?? [], new Date().toISOString().slice(0, 10))) {
      log.info({ index, ms }, 'index built before listening (--warm)');
    }
  }
  const wire = buildServer(config, {
    log: root, // the server names itself (component: http); a child of `log` would carry the key twice
    accounts,
    ...(reference === undefined ? {} : { reference }),
    rateLimiter: createRateLimiter(config.rateLimit),
    // close() writes the pending usage counts first
    hooks: { onClose: [() => accounts.close(), () => reference?.close()] },
  });
  const { server } = wire;

  server.on('error', (err) => {
    log.error({ err }, 'server error');
    process.exit(1);
  });
  server.listen(config.http.port, config.http.host, () => {
    const { port } = server.address() as AddressInfo;
    const host = config.http.host.includes(':') ? `[${config.http.host}]` : config.http.host;
    process.stdout.write(`listening on http://${host}:${String(port)}\n`);
  });

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      return;
    }
    stopping = true;
    log.info({ signal }, 'shutting down');
    wire.shutdown(SHUTDOWN_GRACE_MS).then(
      () => {
        log.info('stopped');
        log.flush();
        process.exit(0);
      },
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        log.flush();
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (
    err instanceof ScrubberError ||
    (err instanceof TypeError && 'code' in err && String(err.code).startsWith('ERR_PARSE_ARGS'))
  ) {
    process.stderr.write(`${err.message}\n${usage}`);
    process.exit(2);
  }
  throw err;
});
