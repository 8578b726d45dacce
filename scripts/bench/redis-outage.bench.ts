// What a Redis outage costs the requests that count in it (tests/api/redis-outage.test.ts and
// health.test.ts check what they answer; this prints how long they take): sign-ins and quotes with
// Redis up, then killed, then not answering on open connections (the first sign-in meets the
// command timeout), and the readiness probe's answer once Redis is killed.
import { RedisServer } from '../../tests/support/redis-server.js';
import { spread, startBenchServer, timed } from './bench-server.js';

const redis = await new RedisServer().start();
const server = await startBenchServer({ REDIS_URL: redis.url, REDIS_KEY_PREFIX: 'bench:' });
const post = (url: string, body: object, address: string) => fetch(`${server.url}${url}`, {
  method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address }, body: JSON.stringify(body),
}).then(async (res) => { await res.arrayBuffer(); return res.status; });
const signIn = (password = server.sender.password, address = '203.0.113.50') =>
  post('/api/auth/login', { email: server.sender.email, password }, address);
const quote = () => post('/api/quotes', { direction: 'USD_XAF', amount: '100' }, '203.0.113.51');

async function times(count: number, run: () => Promise<number>, expected: number): Promise<number[]> {
  const all: number[] = [];
  for (let i = 0; i < count; i++) {
    let status = 0;
    all.push(await timed(async () => { status = await run(); }));
    if (status !== expected) throw new Error(`answered ${status}, not ${expected}`);
  }
  return all;
}

try {
  console.log(`sign-ins, Redis up: ${spread(await times(20, () => signIn(), 200))}`);
  console.log(`quotes, Redis up: ${spread(await times(100, quote, 200))}`);
  await redis.kill();
  const readyMs = await timed(async () => {
    const res = await fetch(`${server.url}/api/health/ready`);
    if (res.status !== 503) throw new Error(`ready answered ${res.status}`);
  });
  console.log(`readiness once Redis is killed (503): ${readyMs.toFixed(0)} ms`);
  console.log(`sign-ins, Redis killed: ${spread(await times(20, () => signIn(), 200))}`);
  console.log(`quotes, Redis killed: ${spread(await times(100, quote, 200))}`);
  await times(10, () => signIn('wrong-password', '198.51.100.60'), 401);
  console.log(`a refused sign-in (429), Redis killed: ${spread(await times(1, () => signIn('wrong-password', '198.51.100.60'), 429))}`);

  await redis.start();
  // Until the processes' connection is back (its retries are spaced out).
  for (let tries = 0; tries < 100; tries++) {
    if ((await fetch(`${server.url}/api/health/ready`)).status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  redis.pause();
  const paused = await times(10, () => signIn(), 200);
  console.log(`sign-ins, Redis not answering: the first ${paused[0]!.toFixed(0)} ms, the next nine ${spread(paused.slice(1))}`);
  redis.resume();
} finally {
  redis.resume();
  await server.close();
  await redis.kill();
}
