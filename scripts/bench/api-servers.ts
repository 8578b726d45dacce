// The reference servers of api.bench.ts, each in its own process like the product:
//   raw   — node:http answering "hello world", the most any HTTP server here can do;
//   plain — node:http + pg (pool of 10, like the product) running, for each path, the very SQL
//           statements the product runs for that endpoint (given as JSON in BENCH_PLAIN_SQL),
//           each as a named prepared statement (parsed once per connection, the least work
//           PostgreSQL can do for it), answering their rows as JSON: the limit of the work itself.
import { createHash } from 'node:crypto';
import http from 'node:http';
import pg from 'pg';

const mode = process.argv[2];
type Statement = { text: string; params: unknown[] };
const routes: Record<string, Statement[]> = mode === 'plain' ? JSON.parse(process.env.BENCH_PLAIN_SQL ?? '{}') : {};
const pool = mode === 'plain' ? new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 }) : null;

const nameOf = (text: string) => `plain_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;

const server = http.createServer((req, res) => {
  if (mode === 'raw') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('hello world');
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
