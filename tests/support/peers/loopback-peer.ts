import http from 'node:http';
import type { AddressInfo } from 'node:net';

// The one style of every operator's loopback peer (Airtel, MTN, …): an HTTP server on 127.0.0.1
// holding state per reference, recording each request, and answering with the faults an
// operator really has, scripted by the test per operation.

/**
 * A fault for the next call of one operation:
 * - `down`: a 5xx before anything happened;
 * - `lost`: the work is done, then the connection is dropped (the answer lost on the way);
 * - `late`: the work is done and the answer sent after `ms` (past the client's timeout);
 * - `error`: the operator's own refusal or ambiguity, as it really answers it (for Airtel often
 *   inside an HTTP 200): the peer subclass reads `code`;
 * - `held`: the request is stuck on its way (a proxy, the network) before the operator sees it,
 *   until `releaseHeld`; if the caller goes away meanwhile, it never arrives and nothing is done.
 */
export type Fault =
  | { kind: 'down'; status?: number }
  | { kind: 'held' }
  | { kind: 'lost' }
  | { kind: 'late'; ms: number }
  | { kind: 'error'; code: string; status?: number };

export interface RecordedRequest { method: string; path: string; headers: http.IncomingHttpHeaders; body: unknown; at: number }

export interface PeerRequest {
  method: string;
  url: URL;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  raw: string;
}

export interface PeerAnswer { status: number; body?: unknown; headers?: Record<string, string> }

/** What a subclass's route handler gets: the request, and the fault scripted for its operation. */
export type Handler = (req: PeerRequest, fault: Fault | undefined) => PeerAnswer | Promise<PeerAnswer>;

export abstract class LoopbackPeer<Operation extends string> {
  readonly requests: RecordedRequest[] = [];
  url = '';
  private faults = new Map<Operation, Fault[]>();
  private server = http.createServer((req, res) => void this.serve(req, res));
  private sockets = new Set<import('node:net').Socket>();
  private stuck = new Set<() => void>();

  /** Which operation a request is (for faults), and its handler; undefined answers 404. */
  protected abstract route(method: string, path: string): { operation: Operation; handle: Handler } | undefined;

  /** The next `times` calls of `operation` meet `fault`. */
  failNext(operation: Operation, fault: Fault, times = 1): void {
    this.faults.set(operation, [...(this.faults.get(operation) ?? []), ...Array.from({ length: times }, () => fault)]);
  }

  /** How many requests are stuck on their way (`held`) now. */
  heldCount(): number {
    return this.stuck.size;
  }

  /** Lets every stuck request reach the operator. */
  releaseHeld(): void {
    for (const release of this.stuck) release();
  }

  /** Requests whose path starts with `prefix` (e.g. '/standard/v2/disbursements'). */
  calls(method: string, prefix: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && r.path.startsWith(prefix));
  }

  async start(port = 0): Promise<this> {
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** POSTs a JSON callback to `url` as the operator would; answers the receiver's status (0 if unreachable). */
  async sendCallback(url: string, body: unknown, headers: Record<string, string> = {}): Promise<number> {
    try {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      await res.arrayBuffer();
      return res.status;
    } catch {
      return 0;
    }
  }

  /** A held request: true once released, false when its caller went away first (it never arrived). */
  private arrives(req: http.IncomingMessage): Promise<boolean> {
    return new Promise((resolve) => {
      const release = () => {
        this.stuck.delete(release);
        req.socket.off('close', gone);
        resolve(true);
      };
      const gone = () => {
        this.stuck.delete(release);
        resolve(false);
      };
      this.stuck.add(release);
      req.socket.once('close', gone);
    });
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    let body: unknown = undefined;
    if (raw && /json/.test(req.headers['content-type'] ?? '')) {
      try {
        body = JSON.parse(raw);
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'malformed JSON' }));
        return;
      }
    }
    const method = req.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, headers: req.headers, body, at: Date.now() });
    const found = this.route(method, url.pathname);
    if (!found) {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'not found' }));
      return;
    }
    const fault = this.faults.get(found.operation)?.shift();
    if (fault?.kind === 'held' && !(await this.arrives(req))) return;
    if (fault?.kind === 'down') {
      res.writeHead(fault.status ?? 503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'service unavailable' }));
      return;
    }
    const answer = await found.handle({ method, url, headers: req.headers, body, raw }, fault);
    if (fault?.kind === 'lost') {
      req.socket.destroy();
      return;
    }
    if (fault?.kind === 'late') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (res.destroyed) return;
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? undefined : JSON.stringify(answer.body));
  }
}
