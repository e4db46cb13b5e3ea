// `npm run data:fetch [-- --mirror DIR|URL] [--only NAME,...] [--dest DIR] [--list FILE]`: downloads (or copies from
// a mirror) every official file listed in data/sources.json into the sources folder, verifying each checksum.
// Parses argv, loads the configuration, calls src/refdata/fetch, prints progress on stderr and a summary.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { ScrubberError } from '../src/errors.js';
import {
  fetchSources,
  parseMirror,
  readSourcesManifest,
  selectSources,
  type FetchOutcome,
  type FetchReporter,
} from '../src/refdata/fetch/index.js';

const defaultList = fileURLToPath(new URL('../data/sources.json', import.meta.url));

const usage = `usage: npm run data:fetch -- [--mirror DIR|URL] [--only NAME,...] [--dest DIR] [--list FILE]
  --mirror DIR|URL   copy from a local folder, or download from an HTTP(S) base URL (file = base + relative path),
                     laid out like the sources folder, instead of the official download URLs
  --only NAME,...    only these datasets (names as in data/sources.json, e.g. icd10cm-order,mue-practitioner)
  --dest DIR         where to put the files (default: REFDATA_DIR, else data/sources)
  --list FILE        the sources list (default: data/sources.json)`;

const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;

function stderrReporter(): FetchReporter {
  const tty = process.stderr.isTTY;
  let lastStep = -1;
  return {
    start(entry, from, resumeFrom, replacing) {
      lastStep = -1;
      const resume = resumeFrom > 0 ? `, resuming at ${mb(resumeFrom)}` : '';
      const replace = replacing ? ' (replacing a copy with another checksum)' : '';
      process.stderr.write(`fetch ${entry.file} (${mb(entry.bytes)}) from ${from}${resume}${replace}\n`);
    },
    progress(entry, bytes) {
      const pct = entry.bytes === 0 ? 100 : Math.floor((bytes / entry.bytes) * 100);
      if (tty) {
        process.stderr.write(`\r  ${entry.file}: ${mb(bytes)} / ${mb(entry.bytes)} ${pct}%`);
        return;
      }
      const step = Math.floor(pct / 25);
      if (step > lastStep) {
        lastStep = step;
        process.stderr.write(`  ${entry.file}: ${mb(bytes)} / ${mb(entry.bytes)} ${pct}%\n`);
      }
    },
    retry(entry, attempt, delayMs, reason) {
      process.stderr.write(
        `${tty ? '\n' : ''}  retry ${entry.file} after attempt ${attempt} in ${(delayMs / 1000).toFixed(1)} s: ${reason}\n`,
      );
    },
    done(outcome) {
      const nl = tty && (outcome.status === 'fetched' || outcome.status === 'failed') ? '\n' : '';
      switch (outcome.status) {
        case 'present':
          process.stderr.write(`ok    ${outcome.entry.file}: present, checksum verified\n`);
          break;
        case 'fetched':
          process.stderr.write(
            `${nl}ok    ${outcome.entry.file}: fetched, sha256 ${outcome.entry.sha256.slice(0, 16)}… verified\n`,
          );
          break;
        case 'unavailable':
          process.stderr.write(`skip  ${outcome.entry.file}: no official download URL (use --mirror)\n`);
          break;
        case 'failed':
          process.stderr.write(
            `${nl}FAIL  ${outcome.message}${outcome.partKept ? ' (partial download kept; run again to resume)' : ''}\n`,
          );
          break;
      }
    },
  };
}

function summary(outcomes: readonly FetchOutcome[], dest: string): string {
  const count = (s: FetchOutcome['status']): number => outcomes.filter((o) => o.status === s).length;
  const lines = [
    `${dest}: ${count('fetched')} fetched, ${count('present')} already present, ${count('unavailable')} unavailable, ${count('failed')} failed`,
  ];
  const unavailable = outcomes.filter((o) => o.status === 'unavailable');
  if (unavailable.length > 0) {
    lines.push(
      `${unavailable.length} files have no official download URL (see their "note" in the sources list); get them with --mirror DIR|URL:`,
    );
    lines.push(...unavailable.map((o) => `  ${o.entry.dataset} ${o.entry.release}: ${o.entry.file}`));
  }
  for (const o of outcomes) {
    if (o.status === 'failed') {
      lines.push(`failed: ${o.message}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      mirror: { type: 'string' },
      only: { type: 'string' },
      dest: { type: 'string' },
      list: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stderr.write(`${usage}\n`);
    return 0;
  }
  const dest = values.dest ?? loadConfig().refdataDir;
  const list = await readSourcesManifest(values.list ?? defaultList);
  const only = values.only
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const { selected, unknown } = selectSources(list.sources, only);
  if (unknown.length > 0) {
    const known = [...new Set(list.sources.map((e) => e.dataset))].join(', ');
    process.stderr.write(`data:fetch: unknown dataset(s) ${unknown.join(', ')}; known: ${known}\n`);
    return 2;
  }
  const outcomes = await fetchSources({
    entries: selected,
    dest,
    mirror: values.mirror === undefined ? undefined : parseMirror(values.mirror),
    reporter: stderrReporter(),
  });
  process.stderr.write(summary(outcomes, dest));
  return outcomes.some((o) => o.status === 'failed') ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `data:fetch: ${err instanceof ScrubberError || err instanceof TypeError ? err.message : String((err as Error).stack ?? err)}\n`,
    );
    process.exitCode = 1;
  },
);
