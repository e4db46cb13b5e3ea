// autocannon driven through its API, for loads whose path changes with every request (the command line sends one
// URL). Runs in its own process like the command line: `node dist/test/bench/cannon.js CONFIG.json` prints
// autocannon's result as JSON. CONFIG: { url, connections, seconds, paths } — the paths are sent in turn.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';

interface CannonConfig {
  readonly url: string;
  readonly connections: number;
  readonly seconds: number;
  readonly paths: readonly string[];
}

const file = process.argv[2];
if (file === undefined) {
  throw new Error('usage: cannon.js CONFIG.json');
}
const config = JSON.parse(readFileSync(file, 'utf8')) as CannonConfig;
let next = 0;
const result = await autocannon({
  url: config.url,
  connections: config.connections,
  duration: config.seconds,
  requests: [
    {
      method: 'GET',
      setupRequest: (request) => {
        request.path = config.paths[next++ % config.paths.length] ?? '/';
        return request;
      },
    },
  ],
});
process.stdout.write(JSON.stringify(result));
