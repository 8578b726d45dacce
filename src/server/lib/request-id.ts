import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config.js';

/**
 * Every request's id: answered in `X-Request-Id`, bound to each of its log lines (`reqId`) and
 * written in 5xx bodies, so a sender can quote it to support and support can find its lines.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Which peers TRUST_PROXY trusts; a hop count trusts that many proxies nearest the server. */
export type ProxyTrust = (address: string, hop: number) => boolean;

export function proxyTrust(setting: Config['TRUST_PROXY']): ProxyTrust {
  if (typeof setting === 'boolean') return () => setting;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting.split(',').map((v) => v.trim()));
}

/**
 * What a proxy's id may look like: the usual forms (UUIDs, hex, base64, dotted or colon-separated
 * trace ids), bounded, nothing that could break a log line or forge another field.
 */
const PROXY_ID = /^[\w.:=+/-]{1,128}$/;

/**
 * Fastify's genReqId: the id a trusted proxy sent when it has that shape, else a new random UUID.
 * A client talking to us directly cannot choose its id (nor put its own text into our logs).
 */
export function requestIdOf(trust: ProxyTrust): (req: IncomingMessage) => string {
  return (req) => {
    const sent = req.headers[REQUEST_ID_HEADER];
    const peer = req.socket.remoteAddress;
    return typeof sent === 'string' && peer !== undefined && PROXY_ID.test(sent) && trust(peer, 0) ? sent : randomUUID();
  };
}
