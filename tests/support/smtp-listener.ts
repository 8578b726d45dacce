import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on loopback: the app under test delivers to it over SMTP exactly as it would
 * to a provider, and tests read what arrived.
 */
export class SmtpListener {
  readonly messages: ReceivedMail[] = [];
  /** Connections clients opened to it. */
  connections = 0;
  /** Recipients whose mail it takes in and never answers (a stalled mail server), until resume(). */
  private stalled = new Set<string>();
  private waiters: Array<() => void> = [];
  private server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    // No reverse DNS of the loopback client: on a machine without DNS each lookup waits to fail.
    disableReverseLookup: true,
    // Stopping, it tells clients still connected (a kept connection) "421" and closes after 0.2 s,
    // as a mail server shutting down does, instead of waiting 30 s for them to leave.
    closeTimeout: 200,
    logger: false,
    onConnect: (_session, callback) => {
      this.connections += 1;
      callback();
    },
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        // Silent after DATA: the client waits for an answer that never comes.
        if (session.envelope.rcptTo.some((r) => this.stalled.has(r.address.toLowerCase()))) return;
        this.messages.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: decodeQuotedPrintable(Buffer.concat(chunks).toString('utf8')),
        });
        for (const w of this.waiters.splice(0)) w();
        callback();
      });
    },
  });

  url = '';

  /** Listens on `port` (a free one by default): a test can bring a stopped mail server back at its address. */
  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', () => resolve()));
    this.url = `smtp://127.0.0.1:${(this.server.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Mail to `to` is read to its end and never answered, as by a mail server that hangs. */
  stallMailTo(to: string): void {
    this.stalled.add(to.toLowerCase());
  }

  /** Mail sent from now on is answered again. */
  resume(): void {
    this.stalled.clear();
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The newest mail to `to` whose text matches, waiting up to timeoutMs for it to arrive. */
  async waitFor(to: string, match: RegExp = /./, timeoutMs = 10_000): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...this.messages].reverse().find((m) => m.to.includes(to.toLowerCase()) && match.test(m.raw));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} matching ${match} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  /** The 6-digit code in the newest mail to `to`. */
  async codeFor(to: string): Promise<string> {
    const mail = await this.waitFor(to, /\b\d{6}\b/);
    return /\b(\d{6})\b/.exec(mail.raw.split(/\r?\n\r?\n/).slice(1).join('\n'))?.[1] ?? '';
  }
}

function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
}
