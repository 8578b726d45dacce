import type { FastifyPluginAsync } from 'fastify';

/**
 * A plugin whose hooks, decorations and handlers land on the app that registers it instead of a
 * context of its own: what fastify-plugin does, by the property Fastify reads ('skip-override').
 */
export function shared<T extends Record<string, unknown>>(name: string, plugin: FastifyPluginAsync<T>): FastifyPluginAsync<T> {
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: name });
}
