// `npm run scrub -- <files or folders...> --out DIR ...`: the batch scrubber's entry point (issue 12 §1). Parses
// argv, loads the configuration, builds the reference database first when it is missing, starts the worker pool,
// shows progress on stderr and a summary on stdout, and maps the outcome to the exit status. No scrubbing logic.
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { OutputError, ScrubberError } from '../src/errors.js';
import { BATCH_RULES, RULES } from '../src/engines/validation/index.js';
import type { RuleId } from '../src/findings/codes.js';
import { createLogger } from '../src/log.js';
import { mergeShards } from '../src/pipeline/merge-shards.js';
import { progressLine, stageLine } from '../src/pipeline/progress.js';
import { summaryText } from '../src/pipeline/summary.js';
import { CHECKPOINT } from '../src/pipeline/run-files.js';
import { runScrub, type ScrubProgress } from '../src/pipeline/run-scrub.js';
import { buildReference } from '../src/refdata/builder/builder.js';
import { allLoaders, skipRules } from '../src/refdata/loaders/index.js';
import { openReference } from '../src/reference/index.js';
import type { ScrubSummary } from '../src/schemas/scrub.js';
import { createScrubPool } from '../src/workers/pool.js';
import { parseShard, type ShardSpec } from '../src/workers/shard.js';
import { stderrReporter } from './build-reporter.js';

const usage = `usage: npm run scrub -- <files or folders...> --out DIR [options]
       npm run scrub -- merge <shard folders...> --out DIR
  --out DIR                      report folder (created)
  --format csv,ndjson            findings report formats (default csv)
  --workers N                    worker threads (default: the machine's cores)
  --resume                       continue from the checkpoint in --out after a crash
  --checks RULE,...              run only these rules (see docs/rules.md)
  --fail-on error|warning|never  exit 1 when a finding at or above this level was found (default never)
  --checkpoint-seconds S         seconds between checkpoints (default 2)
  --history FILE                 earlier services (CSV: patientId,dateOfService,procedureCode) for frequency limits
  --group-by claimId             CSV rows of a claim need not be adjacent (gathered through a temporary SQLite file)
  --shard K/N                    scrub only the claims whose patient hashes to shard K (0..N-1); merge the N --out folders
  --sources DIR  --db FILE       reference sources folder and database (as for refdata)
exit status: 0 done, 1 findings at --fail-on level, 2 usage or configuration, 3 unreadable input, 4 unwritable output`;

/** Exit statuses (issue 12 §1). */
const EXIT = { ok: 0, findings: 1, usage: 2, input: 3, output: 4 } as const;

class UsageError extends Error {}

/** The progress display: a redrawn bar line on a terminal, a log line every 10 s otherwise. */
function progressReporter(tty: boolean): { update(p: ScrubProgress): void; stage(text: string): void; done(): void } {
  let last = 0;
  let first: ScrubProgress | undefined;
  let logged = false;
  return {
    update(p) {
      first ??= p;
      const now = performance.now();
      if (now - last < (tty ? 250 : 10_000)) {
        return;
      }
      last = now;
      const text = progressLine(p, tty, process.stderr.columns, first);
      process.stderr.write(tty ? `\r${text}\x1b[K` : `${text}\n`);
      logged = true;
    },
    stage(text) {
      // The bar's line (on a terminal) gives way to the step under way; a log gets a line when the run was long
      // enough to log its progress (a short run stays quiet).
      if (tty) {
        process.stderr.write(`\r${stageLine(text, true, process.stderr.columns)}\x1b[K`);
      } else if (logged) {
        process.stderr.write(`${stageLine(text, false)}\n`);
      }
    },
    done() {
      if (tty) {
        process.stderr.write('\r\x1b[K');
      }
    },
  };
}

/** The human summary on stdout. */
function printSummary(s: ScrubSummary, outDir: string): void {
  process.stdout.write(summaryText(s, outDir));
}

/** The options `scrub merge` takes (the configuration ones, --db and --sources, are harmless: it reads no reference). */
const MERGE_OPTIONS = new Set(['out', 'fail-on', 'log-level', 'help', 'db', 'sources']);

/** The reports folder of the run under way, for the last words of a failure. */
let runOut: string | undefined;

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        out: { type: 'string' },
        format: { type: 'string', default: 'csv' },
        workers: { type: 'string' },
        resume: { type: 'boolean', default: false },
        checks: { type: 'string' },
        'fail-on': { type: 'string', default: 'never' },
        'checkpoint-seconds': { type: 'string', default: '2' },
        history: { type: 'string' },
        'group-by': { type: 'string' },
        shard: { type: 'string' },
        sources: { type: 'string' },
        db: { type: 'string' },
        'log-level': { type: 'string' },
        help: { type: 'boolean', default: false },
      },
      strict: true,
      tokens: true,
    });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const { values, positionals, tokens } = parsed;
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return EXIT.ok;
  }
  const failOn = values['fail-on'];
  if (failOn !== 'error' && failOn !== 'warning' && failOn !== 'never') {
    throw new UsageError(`--fail-on takes error, warning or never, not ${JSON.stringify(failOn)}`);
  }
  if (positionals[0] === 'merge') {
    // The shard runs took the scrub's options; a merge given one would seem to apply it, and cannot.
    const given = new Set(tokens.flatMap((t) => (t.kind === 'option' ? [t.name] : [])));
    const misplaced = [...given].filter((o) => !MERGE_OPTIONS.has(o));
    if (misplaced.length > 0) {
      throw new UsageError(
        `merge takes --out and --fail-on (and --db, --sources, --log-level), not ${misplaced.map((o) => `--${o}`).join(', ')}: the shards' runs took those options`,
      );
    }
    const dirs = positionals.slice(1);
    if (dirs.length === 0 || values.out === undefined) {
      throw new UsageError('merge: give the shard folders and --out DIR');
    }
    const summary = await mergeShards(dirs, values.out, (note) => process.stderr.write(`${note}\n`));
    printSummary(summary, values.out);
    // The merged run ends as the unsharded run would have: an input not read, findings at the --fail-on level.
    return exitOf(summary, failOn);
  }
  if (positionals.length === 0 || values.out === undefined) {
    throw new UsageError('give the claim files or folders and --out DIR');
  }
  const formats = values.format.split(',').map((f) => f.trim().toLowerCase());
  const unknownFormat = formats.find((f) => f !== 'csv' && f !== 'ndjson');
  if (unknownFormat !== undefined || formats.length === 0) {
    throw new UsageError(`--format takes csv and/or ndjson, not ${JSON.stringify(unknownFormat ?? '')}`);
  }
  const workers = values.workers === undefined ? availableParallelism() : Number(values.workers);
  if (!Number.isInteger(workers) || workers < 1 || workers > 64) {
    throw new UsageError(`--workers takes a whole number from 1 to 64, not ${JSON.stringify(values.workers)}`);
  }
  let checks: RuleId[] | undefined;
  if (values.checks !== undefined) {
    const ids = values.checks.split(',').map((c) => c.trim()).filter(Boolean);
    const known = new Set<string>([...RULES, ...BATCH_RULES].map((r) => r.id));
    if (ids.length === 0) {
      // An empty list would run no rule and report every claim clean.
      throw new UsageError(`--checks: name at least one rule (rules: ${[...known].join(', ')})`);
    }
    const bad = ids.filter((c) => !known.has(c));
    if (bad.length > 0) {
      throw new UsageError(`--checks: unknown rule ${bad.join(', ')} (rules: ${[...known].join(', ')})`);
    }
    checks = ids;
  }
  const checkpointSeconds = Number(values['checkpoint-seconds']);
  if (!(checkpointSeconds > 0 && checkpointSeconds <= 3600)) {
    throw new UsageError(`--checkpoint-seconds takes a number of seconds up to 3600, not ${JSON.stringify(values['checkpoint-seconds'])}`);
  }
  // Progress and the summary are the human output; structured log lines only at warn unless asked for.
  if (values['group-by'] !== undefined && values['group-by'].toLowerCase() !== 'claimid') {
    throw new UsageError(`--group-by takes claimId, not ${JSON.stringify(values['group-by'])}`);
  }
  let shard: ShardSpec | undefined;
  if (values.shard !== undefined) {
    const spec = parseShard(values.shard);
    if (typeof spec === 'string') {
      throw new UsageError(spec);
    }
    shard = spec;
  }
  const config = loadConfig(argv, { LOG_LEVEL: 'warn', ...process.env });
  const log = createLogger(config).child({ component: 'scrub' });

  // The reference database: built first from the sources folder when missing.
  if (!existsSync(config.refdataDb)) {
    process.stderr.write(`no reference database at ${config.refdataDb}: building it from ${config.refdataDir} first\n`);
    await buildReference({
      sourcesDir: config.refdataDir,
      dbPath: config.refdataDb,
      bundledDir: config.bundledDir,
      policiesDir: config.policiesDir,
      skipRules,
      loaders: allLoaders,
      force: false,
      reporter: stderrReporter(),
    });
  }
  const ref = openReference(config.refdataDb);
  const { builtAt, schemaVersion, buildKey } = ref.info;
  const reference = { database: config.refdataDb, builtAt, schemaVersion, ...(buildKey === undefined ? {} : { buildKey }) };
  ref.close();

  log.info({ inputs: positionals.length, out: values.out, workers, resume: values.resume }, 'scrub started');
  const pool = createScrubPool(workers, config.refdataDb);
  let poolClosed: Promise<void> | undefined;
  const closePool = (): Promise<void> => (poolClosed ??= pool.close());
  const progress = progressReporter(process.stderr.isTTY === true);
  let summary: ScrubSummary;
  try {
    runOut = values.out;
    summary = await runScrub(
      {
        inputs: positionals,
        outDir: values.out,
        formats: { csv: formats.includes('csv'), ndjson: formats.includes('ndjson') },
        resume: values.resume,
        checks,
        checkpointSeconds,
        history: values.history,
        groupBy: values['group-by'] !== undefined,
        shard,
      },
      {
        pool,
        reference,
        onProgress: (p) => progress.update(p),
        // On a terminal a note first clears the bar's (or a stage's) line, or it would be glued to it.
        onNote: (note) => process.stderr.write(`${process.stderr.isTTY === true ? '\r\x1b[K' : ''}${note}\n`),
        // The workers' memory is given back before the cross-claim checks and the last reports.
        onWorkersDone: closePool,
        onStage: (stage) => progress.stage(stage),
      },
    );
  } finally {
    progress.done();
    await closePool();
  }
  log.info(
    { claims: summary.claims.read, lines: summary.linesRead, ms: Math.round(summary.timing.elapsedMs) },
    'scrub finished',
  );
  printSummary(summary, values.out);
  return exitOf(summary, failOn);
}

/** The exit status of a finished run or merge. */
function exitOf(summary: ScrubSummary, failOn: 'error' | 'warning' | 'never'): number {
  // An input read only in part is an input that could not be read (its claims before the fault are in the reports).
  if (summary.inputs.some((i) => i.error !== undefined)) {
    return EXIT.input;
  }
  // A claim that could not be read is as far from payable as one with an error: it fails either level.
  const worst = summary.findings.bySeverity;
  const errors = worst.error + summary.claims.rejected;
  if ((failOn === 'error' && errors > 0) || (failOn === 'warning' && errors + worst.warning > 0)) {
    return EXIT.findings;
  }
  return EXIT.ok;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(`scrub: ${err.message}\n${usage}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    if (err instanceof OutputError) {
      const kept = runOut !== undefined && existsSync(join(runOut, CHECKPOINT));
      process.stderr.write(
        `scrub: ${err.message}${kept ? ' (the checkpoint in --out is kept: fix it and run again with --resume)' : ''}\n`,
      );
      process.exitCode = EXIT.output;
      return;
    }
    if (err instanceof ScrubberError) {
      process.stderr.write(`scrub: ${err.message}\n`);
      process.exitCode = err.code === 'INPUT_FORMAT' ? EXIT.input : EXIT.usage;
      return;
    }
    process.stderr.write(`scrub: ${String((err as Error).stack ?? err)}\n`);
    process.exitCode = 70;
  },
);
