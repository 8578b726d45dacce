import { spawn, type ChildProcess } from 'node:child_process';

/** `tsx src/server/main.ts` as a process of its own, as a supervisor runs it. */
export interface ServerProcess {
  child: ChildProcess;
  /** Where it listens, once it said so. */
  url: string;
  stdout: () => string;
  stderr: () => string;
  /** How it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the server with `env` (and PATH); resolves once it prints where it listens, or once it exits. */
export function spawnServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const server: ServerProcess = { child, url: '', stdout: () => out, stderr: () => err, exited };
  return new Promise((resolve) => {
    const seen = () => {
      const found = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (found && !server.url) {
        server.url = found[1]!;
        resolve(server);
      }
    };
    child.stdout!.on('data', (chunk: Buffer) => { out += chunk.toString(); seen(); });
    child.stderr!.on('data', (chunk: Buffer) => { err += chunk.toString(); });
    void exited.then(() => resolve(server));
  });
}

/** Ends it if it still runs (SIGKILL: a test's leftover, not a shutdown under test). */
export async function killServer(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}

/** Within `ms`, how the process ended; null if it still runs. */
export async function exitWithin(server: ServerProcess, ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null } | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), ms); });
  try {
    return await Promise.race([server.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}
