// Which shard a claim belongs to (issue 12 §7, `scrub --shard K/N`). Every shard reads every input; a worker keeps
// the claims whose patient key hashes to its shard, so all of a patient's claims meet in one shard and the
// cross-claim checks see them together. Pure, so an orchestrator can reproduce the split:
//
//   key   = the claim's patient id (trimmed), else `<file>\t<line>` of its first record (a claim without a patient
//           id takes part in no cross-claim check; a rejected record has none read)
//   shard = first 4 bytes of SHA-256(key, UTF-8) as a big-endian unsigned integer, modulo N
import { createHash } from 'node:crypto';
import { isStructural, type ReadItem } from '../readers/claims/types.js';

/** `--shard K/N`: shard `index` (0-based, as a Kubernetes Indexed Job's JOB_COMPLETION_INDEX) of `count`. */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

/** Most shards a run may be split into. */
export const MAX_SHARDS = 10_000;

/**
 * Reads `K/N`.
 * @returns the spec, or a message saying what is wrong
 */
export function parseShard(text: string): ShardSpec | string {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (m === null) {
    return `--shard takes K/N (shard K of N, K from 0 to N-1), not ${JSON.stringify(text)}`;
  }
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || count > MAX_SHARDS || index >= count) {
    return `--shard ${text}: N must be 1 to ${String(MAX_SHARDS)} and K from 0 to N-1`;
  }
  return { index, count };
}

/** The shard of a key. */
export function shardOfKey(key: string, count: number): number {
  return createHash('sha256').update(key, 'utf8').digest().readUInt32BE(0) % count;
}

/** The key a read claim or rejected record is sharded by (see the module header). */
export function shardKeyOf(item: ReadItem, file: string): string {
  if (item.kind === 'claim') {
    const patient = item.claim.patient?.id?.trim();
    return patient === undefined || patient === '' ? `${file}\t${String(item.line)}` : patient;
  }
  return `${file}\t${String(item.records[0]?.line ?? 0)}`;
}

/** Input lines an item stands for (as counted in linesScrubbed / linesRejected). */
export function inputLinesOfItem(item: ReadItem): number {
  return item.kind === 'claim' ? item.inputLines : isStructural(item) ? 0 : item.records.length;
}
