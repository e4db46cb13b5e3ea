// HTTP shim benchmark (issue 3 §6): a bare node:http hello-world server against our server's Hello (JSON) with
// authentication off and on, each in its own process started the way `npm run serve` runs the product (plain node on
// tsc's output in dist/), each driven for the same time by autocannon in another process, over loopback. Prints
// requests/s, p50/p99 latency and the ratio to the bare server. Targets: our Hello reaches at least 60% of the bare
// server's requests/s; checking signatures costs under 10% (auth on vs off).
//
// Hello is public, so for the auth-on rows the target serves a copy of it that is not: every call then runs the
// authentication hook (signed headers: an HMAC-SHA256 and one key lookup; or a session token: a SHA-256 and one
// lookup), the rate-limit hook (a limit the load never reaches) and usage counting (batched writes). The headers are
// signed once before the run with a timestamp that stays within the 5-minute window for all of it.
//
// The signature cost is measured between two rows that send the very same request (the four signed headers make
// it ~180 bytes longer, which costs node's parser and autocannon too): Hello with auth off, where the headers are
// not looked at, and the non-public copy with auth on, where every call is checked.
//
// Usage: npm run bench -- http [--duration=5] [--connections=10] [--rounds=3]
import { loadFlags } from './harness.js';
import { measure, placement, medianRound, printResults, startTarget, type LoadOptions, type Result } from './load.js';
import { machineLine } from './machine.js';
import { measurePipelineCost } from './pipeline-cost.js';

const { duration, connections, rounds: roundCount } = loadFlags({ connections: 10 });
const post = (headers: Readonly<Record<string, string>> = {}): LoadOptions => ({
  connections,
  seconds: duration,
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: '{"worldParam":"world"}',
});

process.stdout.write(
  `HTTP shim benchmark: ${String(roundCount)} rounds of ${String(duration)} s per target (median shown), ${String(connections)} connections, each server and autocannon in their own processes, loopback; ${placement}\n${machineLine()}\n\n`,
);

// Rounds: every target is measured once per round, in the same order. The table shows the round with the median
// Hello/bare ratio; each target's verdict is the median of its per-round ratios, all of which are printed.
const rounds: Result[][] = [];
let usage = '';
for (let round = 0; round < roundCount; round++) {
  const row: Result[] = [];
  const bare = await startTarget(['bare']);
  row.push(await measure('bare node:http hello world', `${bare.info.url}/`, post(), post(), bare.pid));
  await bare.stop();

  const guarded = await startTarget(['hello-auth']);
  const signed = guarded.info.signedHeaders ?? {};
  const ours = await startTarget(['hello']);
  const hello = `${ours.info.url}/json/reply/Hello`;
  row.push(await measure('Hello, POST /json/reply/Hello (auth off)', hello, post(), post(), ours.pid));
  row.push(await measure('Hello (auth off, signed headers sent)', hello, post(signed), post(signed), ours.pid));
  await ours.stop();

  const url = `${guarded.info.url}/json/reply/Hello`;
  row.push(await measure('Hello (auth on: signed headers)', url, post(signed), post(signed), guarded.pid));
  row.push(
    await measure(
      'Hello (auth on: X-Svc-Token session)',
      url,
      post({ 'X-Svc-Token': guarded.info.svcToken ?? '' }),
      undefined,
      guarded.pid,
    ),
  );
  usage = await guarded.stop();
  rounds.push(row);
}
const results = medianRound(rounds);

printResults(results);
// Each target ratio per round (rows of one round were measured minutes apart at most), then its median: on a shared
// 2-core machine one row of a round can land on a noisy moment, so the verdict is the median of the rounds.
const helloRatios = rounds.map((r) => (r[1]?.rps ?? 0) / (r[0]?.rps ?? 1));
const authCosts = rounds.map((r) => 1 - (r[3]?.rps ?? 0) / (r[2]?.rps ?? 1));
// The same cost in server CPU per request (from /proc), which the machine's scheduling noise hardly moves.
const authCpu = rounds.map((r) => (r[3]?.cpuUs ?? Number.NaN) / (r[2]?.cpuUs ?? Number.NaN) - 1);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;
const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
const ratio = median(helloRatios);
const authCost = median(authCosts);
const cost = await measurePipelineCost();
const helloCpu = median(rounds.map((r) => r[2]?.cpuUs ?? Number.NaN));
const checking = cost.signed - cost.authOff;
process.stdout.write(
  `\nper round: Hello/bare ${helloRatios.map(pct).join(', ')}; signature cost ${authCosts.map(pct).join(', ')}; ` +
    `signature cost in server CPU per request ${authCpu.map(pct).join(', ')} (median ${pct(median(authCpu))})\n` +
    `in-process pipeline, no sockets (fastest of 20 turns of 10,000 calls): auth off ${cost.authOff.toFixed(2)} us, ` +
    `signed ${cost.signed.toFixed(2)} us, session ${cost.session.toFixed(2)} us per call; checking a signature adds ` +
    `${checking.toFixed(2)} us, ${pct(checking / helloCpu)} of the ${helloCpu.toFixed(1)} us of server CPU a loopback call with the same headers takes (median)\n` +
    `target: Hello >= 60% of the bare server's requests/s: ${ratio >= 0.6 ? 'MET' : 'MISSED'} (median ${pct(ratio)})\n` +
    `target: signature checking costs < 10% of requests/s (auth on vs off, same signed headers sent): ${authCost < 0.1 ? 'MET' : 'MISSED'} (median ${pct(authCost)}); ` +
    `in server CPU measured without sockets: ${checking / helloCpu < 0.1 ? 'MET' : 'MISSED'} (${pct(checking / helloCpu)})\n` +
    `${usage}\n`,
);
