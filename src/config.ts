// Configuration, parsed once at the entry point from argv and the environment (style.md guideline 8).
// This is the only module that reads process.env; everything else receives the frozen Config.
import { z } from 'zod';
import { ConfigError } from './errors.js';

export const LogLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);
export type LogLevel = z.infer<typeof LogLevel>;

export const Config = z.strictObject({
  /** Folder of official source files. @default 'data/sources' */
  refdataDir: z.string().min(1),
  /** Path of the built reference database. @default 'data/build/reference.sqlite' */
  refdataDb: z.string().min(1),
  /** Reference data committed with the project (contractor table), loaded beside the sources. @default 'data/reference' */
  bundledDir: z.string().min(1),
  /** pino log level. @default 'info' */
  logLevel: LogLevel,
});
export type Config = z.infer<typeof Config>;

/** Flags of argv that override environment settings. */
const argvKeys: Record<string, keyof Config> = {
  '--sources': 'refdataDir',
  '--db': 'refdataDb',
  '--log-level': 'logLevel',
};

/**
 * Builds the configuration from argv flags (`--sources`, `--db`, `--log-level`), then environment variables
 * (`REFDATA_DIR`, `REFDATA_DB`, `LOG_LEVEL`), then defaults.
 * @param argv - command-line arguments after the verb; unrelated flags are ignored here
 * @param env - the environment, normally `process.env`
 * @returns a frozen Config
 * @throws ConfigError naming each invalid field
 */
export function loadConfig(argv: readonly string[] = [], env: NodeJS.ProcessEnv = process.env): Readonly<Config> {
  const fromArgv: Partial<Record<keyof Config, string>> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.split('=', 2) as [string, string | undefined];
    const key = argvKeys[flag];
    if (key !== undefined) {
      const value = inline ?? argv[++i];
      if (value === undefined) {
        throw new ConfigError(`${flag} needs a value`);
      }
      fromArgv[key] = value;
    }
  }
  const parsed = Config.safeParse({
    refdataDir: fromArgv.refdataDir ?? env['REFDATA_DIR'] ?? 'data/sources',
    refdataDb: fromArgv.refdataDb ?? env['REFDATA_DB'] ?? 'data/build/reference.sqlite',
    bundledDir: env['BUNDLED_DATA_DIR'] ?? 'data/reference',
    logLevel: fromArgv.logLevel ?? env['LOG_LEVEL'] ?? 'info',
  });
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${details}`);
  }
  return Object.freeze(parsed.data);
}
