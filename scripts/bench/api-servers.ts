// The reference servers of api.bench.ts, each in its own process like the product:
//   raw   — node:http answering "hello world", the most any HTTP server here can do;
//   copy  — node:http answering, for each path, the headers and bytes given in BENCH_COPY (the
//           product's own answers, read once): what the same answer costs with no framework at all;
//   plain — node:http + pg (pool of 10, like the product) running, for each path, the statements
//           given as JSON in BENCH_PLAIN_SQL (the least SQL that gives the endpoint's rows), each
//           as a named prepared statement (parsed once per connection, the least work PostgreSQL
//           can do for it), answering their rows as JSON: the limit of the work itself.
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const mode = process.argv[2];
type Statement = { text: string; params: unknown[] };
const routes: Record<string, Statement[]> = mode === 'plain' ? JSON.parse(process.env.BENCH_PLAIN_SQL ?? '{}') : {};
// The body as text, the cheapest way node:http sends a small answer (headers and body in one write).
type Copy = { headers: string[]; body: string };
const copies: Record<string, Copy> = mode === 'copy'
  ? Object.fromEntries(Object.entries(JSON.parse(process.env.BENCH_COPY ?? '{}') as Record<string, { headers: string[]; body: string }>)
    .map(([url, c]) => [url, { headers: c.headers, body: Buffer.from(c.body, 'base64').toString('utf8') }]))
  : {};
const pool = mode === 'plain' ? new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 }) : null;

const nameOf = (text: string) => `plain_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;

const server = http.createServer((req, res) => {
  if (mode === 'raw') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello world');
    return;
  }
  const copy = copies[req.url ?? ''];
  if (copy) {
    res.writeHead(200, copy.headers);
    res.end(copy.body);
    return;
  }
  const statements = routes[req.url ?? ''];
  if (!statements || !pool) {
    res.writeHead(404);
    res.end();
    return;
  }
  void (async () => {
    const results: unknown[] = [];
    // One after the other, as the product's request does them.
    for (const s of statements) results.push((await pool.query({ name: nameOf(s.text), text: s.text, values: s.params })).rows);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(results));
  })().catch((err: unknown) => {
    res.writeHead(500);
    res.end(String(err));
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening on http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
