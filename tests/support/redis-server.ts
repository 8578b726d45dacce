import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '@server/lib/free-port.js';

/** A real `redis-server` of the test's (or the bench's) own on loopback, keeping nothing on disk. */
export class RedisServer {
  private child: ChildProcess | null = null;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (again on its earlier port once it has run) and waits until it answers. */
  async start(): Promise<this> {
    this.port ||= await freePort();
    const child = spawn('/usr/bin/redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    this.child = child;
    const probe = new Redis(this.url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      for (let tries = 0; ; tries++) {
        if (child.exitCode !== null) throw new Error(`redis-server exited (${child.exitCode})`);
        try {
          await probe.connect();
          await probe.ping();
          return this;
        } catch (err) {
          probe.disconnect();
          if (tries > 100) throw err;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    } finally {
      probe.disconnect();
    }
  }

  /** Stops it answering while its connections stay open, as a peer behind a broken network does; resume() undoes it. */
  pause(): void {
    this.child?.kill('SIGSTOP');
  }

  resume(): void {
    this.child?.kill('SIGCONT');
  }

  /** Kills it outright, as a crash or a lost machine would. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    child.kill('SIGCONT');
    await exited;
  }
}
