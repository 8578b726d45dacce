import type { FastifyRequest } from 'fastify';
import type { Config } from '@server/config.js';

// The development outbox holds every code and reset link, so only a person at the machine may
// read it: mail not configured, not production, and a loopback peer that no proxy relayed.

/** Whether mail goes to the outbox at all (no SMTP_URL, not production). */
const outboxEnabled = (config: Config): boolean => !config.SMTP_URL && !config.isProduction;

const LOOPBACK = /^(?:127(?:\.\d{1,3}){3}|::1|::ffff:127(?:\.\d{1,3}){3})$/;

// Headers a proxy adds to name the client: a proxy on this machine makes every client's socket
// look local, so any of them means "not from here", whatever TRUST_PROXY says.
const RELAYED = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'x-client-ip', 'true-client-ip', 'cf-connecting-ip', 'via'];

/** The socket's peer is this machine and nothing relayed the request (request.ip could be forged). */
function fromThisMachine(request: FastifyRequest): boolean {
  const peer = request.socket.remoteAddress;
  return peer !== undefined && LOOPBACK.test(peer) && !RELAYED.some((h) => request.headers[h] !== undefined);
}

export const outboxReadable = (config: Config, request: FastifyRequest): boolean => outboxEnabled(config) && fromThisMachine(request);

/** What the console says at start about where e-mails go and who can read them. */
export function mailStartupLine(config: Config): string {
  if (config.SMTP_URL) return 'E-mails are sent through SMTP_URL; the development outbox is off.';
  if (config.isProduction) return 'No SMTP_URL with NODE_ENV=production: e-mails cannot be delivered, and the development outbox is off. Set SMTP_URL.';
  return `No SMTP_URL: e-mails go to the development outbox (${config.publicUrl}/dev/outbox), readable only from a browser on this machine, `
    + 'never through a proxy. NODE_ENV=production turns it off.';
}
