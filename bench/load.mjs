// The load generator of `npm run bench`: autocannon run in its own process (pinned apart from the server by
// bench/run.ts), printing one JSON line. Its one addition to autocannon's command line: `keys`, API keys sent in turn
// (one per request), so that load can spread over many accounts.
import autocannon from 'autocannon';

const o = JSON.parse(process.argv[2]);
const keys = o.keys ?? [];
let next = 0;
const result = await autocannon({
  url: o.url,
  connections: o.connections,
  duration: o.seconds,
  method: o.method ?? 'GET',
  headers: o.headers ?? {},
  body: o.body,
  requests:
    keys.length > 1
      ? [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${keys[next++ % keys.length]}` } }) }]
      : undefined,
});
process.stdout.write(JSON.stringify({ rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx + result.errors }) + '\n');
