// Configuration, parsed once at the entry point from argv, the environment and the reference database's manifest
// (the sources folder it was built from), then defaults (style.md guideline 8).
// This is the only module that reads process.env; everything else receives the frozen Config.
import { NLP_MAX_TEXT_BYTES } from './schemas/nlp.js';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigError } from './errors.js';
import { RateLimitConfig } from './schemas/accounts.js';
import { HttpConfig } from './schemas/http-config.js';
import { manifestPath, ReferenceManifest } from './schemas/reference-manifest.js';

export const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
export type LogLevel = z.infer<typeof LogLevel>;

export const Config = z.strictObject({
  /** Folder of official source files. @default 'data/sources' */
  refdataDir: z.string().min(1),
  /** Path of the built reference database. @default 'data/build/reference.sqlite' */
  refdataDb: z.string().min(1),
  /** Reference data committed with the project (contractor table), loaded beside the sources. @default 'data/reference' */
  bundledDir: z.string().min(1),
  /** Policy packs shipped with the project, loaded beside the sources (docs/policy-packs.md). @default 'samples/policies' */
  policiesDir: z.string().min(1),
  /** pino log level. @default 'info' */
  logLevel: LogLevel,
  /** The HTTP shim (`npm run serve`). */
  http: HttpConfig,
  /** Path of the application database (entities, API keys, sessions, favorites, usage). @default 'data/build/app.sqlite' */
  appDb: z.string().min(1),
  /** Dashboard content loaded into the application database at start-up. @default 'data/dashboard.json' */
  dashboardFile: z.string().min(1),
  /** Folder of the files ResourceRequest serves (widgets and other static documents). @default 'data/resources' */
  resourcesDir: z.string().min(1),
  /** Per-API-key token bucket. @default { perSecond: 50, burst: 100 } */
  rateLimit: RateLimitConfig,
});
export type Config = z.infer<typeof Config>;

/** Flags of argv that override environment settings. */
const argvKeys: Record<string, keyof Config> = {
  '--sources': 'refdataDir',
  '--db': 'refdataDb',
  '--log-level': 'logLevel',
};

/** Flags of argv that override environment settings of the `http` section. */
const httpArgvKeys: Record<string, 'port' | 'host' | 'warm'> = {
  '--port': 'port',
  '--host': 'host',
  '--warm': 'warm',
};

/** A number from argv or the environment; anything else is passed on as text so the schema names the field. */
function numberOr(text: string | undefined, fallback: number): number | string {
  if (text === undefined) {
    return fallback;
  }
  return /^\d+$/.test(text.trim()) ? Number(text) : text;
}

/**
 * The sources folder a database was built from, as its manifest records it: so a folder given once (to the
 * first `refdata build` or `scrub`) sticks for later commands without `--sources` or `REFDATA_DIR`.
 */
function builtFrom(refdataDb: string): string | undefined {
  try {
    const parsed = ReferenceManifest.safeParse(JSON.parse(readFileSync(manifestPath(refdataDb), 'utf8')));
    return parsed.success ? parsed.data.sourcesDir : undefined;
  } catch {
    return undefined;
  }
}

/** `true`/`false`/`1`/`0` from the environment; anything else is passed on as text so the schema names the field. */
function booleanOr(text: string | undefined, fallback: boolean): boolean | string {
  if (text === undefined) {
    return fallback;
  }
  const t = text.trim().toLowerCase();
  return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : text;
}

/**
 * Builds the configuration from argv flags (`--sources`, `--db`, `--log-level`, `--port`, `--host`, `--no-auth`),
 * then environment variables (`REFDATA_DIR`, `REFDATA_DB`, `LOG_LEVEL`, `HTTP_PORT`, `HTTP_HOST`,
 * `HTTP_MAX_BODY_BYTES`, `HTTP_DEBUG`, `HTTP_AUTH`, `HTTP_WARM`, `HTTP_NLP_MAX_TEXT_BYTES`, `APP_ENV`, `API_URL`, `WEB_ROOT`, `WEB_ROOT_WDB`, `APP_DB`,
 * `DASHBOARD_FILE`, `RESOURCES_DIR`, `RATE_LIMIT_PER_SECOND`, `RATE_LIMIT_BURST`), then defaults.
 * @param argv - command-line arguments after the verb; unrelated flags are ignored here
 * @param env - the environment, normally `process.env`
 * @returns a frozen Config
 * @throws ConfigError naming each invalid field
 */
export function loadConfig(argv: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const fromArgv: Partial<Record<keyof Config, string>> = {};
  const httpArgv: Partial<Record<'port' | 'host' | 'warm', string>> = {};
  let noAuth = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    if (flag === '--no-auth') {
      noAuth = true;
      continue;
    }
    const key = argvKeys[flag];
    const httpKey = httpArgvKeys[flag];
    if (key !== undefined || httpKey !== undefined) {
      const value = inline ?? argv[++i];
      if (value === undefined) {
        throw new ConfigError(`${flag} needs a value`);
      }
      if (key !== undefined) {
        fromArgv[key] = value;
      } else if (httpKey !== undefined) {
        httpArgv[httpKey] = value;
      }
    }
  }
  const refdataDb = fromArgv.refdataDb ?? env['REFDATA_DB'] ?? 'data/build/reference.sqlite';
  const host = httpArgv.host ?? env['HTTP_HOST'] ?? '127.0.0.1';
  const port = numberOr(httpArgv.port ?? env['HTTP_PORT'], 8080);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${String(port)}`;
  const webRoot = env['WEB_ROOT'] ?? `${origin}/`;
  const parsed = Config.safeParse({
    refdataDir: fromArgv.refdataDir ?? env['REFDATA_DIR'] ?? builtFrom(refdataDb) ?? 'data/sources',
    refdataDb,
    bundledDir: env['BUNDLED_DATA_DIR'] ?? 'data/reference',
    policiesDir: env['POLICIES_DIR'] ?? 'samples/policies',
    logLevel: fromArgv.logLevel ?? env['LOG_LEVEL'] ?? 'info',
    http: {
      port,
      host,
      maxBodyBytes: numberOr(env['HTTP_MAX_BODY_BYTES'], 1024 * 1024),
      debug: booleanOr(env['HTTP_DEBUG'], false),
      auth: noAuth ? false : booleanOr(env['HTTP_AUTH'], true),
      env: env['APP_ENV'] ?? 'development',
      apiUrl: env['API_URL'] ?? `${origin}/api`,
      webRoot,
      webRootWdb: env['WEB_ROOT_WDB'] ?? webRoot,
      warm: (httpArgv.warm ?? env['HTTP_WARM'] ?? '')
        .split(',')
        .map((w) => w.trim())
        .filter((w) => w !== ''),
      nlpMaxTextBytes: numberOr(env['HTTP_NLP_MAX_TEXT_BYTES'], NLP_MAX_TEXT_BYTES),
    },
    appDb: env['APP_DB'] ?? 'data/build/app.sqlite',
    dashboardFile: env['DASHBOARD_FILE'] ?? 'data/dashboard.json',
    resourcesDir: env['RESOURCES_DIR'] ?? 'data/resources',
    rateLimit: {
      perSecond: numberOr(env['RATE_LIMIT_PER_SECOND'], 50),
      burst: numberOr(env['RATE_LIMIT_BURST'], 100),
    },
  });
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${details}`);
  }
  return Object.freeze({
    ...parsed.data,
    http: Object.freeze(parsed.data.http),
    rateLimit: Object.freeze(parsed.data.rateLimit),
  });
}
