import { type ChildProcess, spawn } from 'node:child_process';

/** `npm run worker`'s entry point as processes of their own on a test's database, killed as kill -9 would. */
export class WorkerProcesses {
  private readonly started: ChildProcess[] = [];

  constructor(private readonly env: () => Record<string, string>) {}

  /** A worker on `databaseUrl`, once it says it has started. */
  async start(databaseUrl: string): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/worker-main.ts'], {
      env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: databaseUrl, ...this.env() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.started.push(child);
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('"msg":"job worker started"')) resolve();
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code) => reject(new Error(`worker exited (${code}) before starting:\n${output}`)));
    });
    return child;
  }

  /** SIGKILL: nothing is cleaned up. */
  async kill(worker: ChildProcess): Promise<void> {
    if (worker.exitCode !== null || worker.signalCode !== null) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.kill('SIGKILL');
    await exited;
  }

  async killAll(): Promise<void> {
    for (const worker of this.started) await this.kill(worker);
  }
}
