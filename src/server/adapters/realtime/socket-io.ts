import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { Realtime } from './realtime.js';

export function createRealtime(_config: Config, _log: FastifyBaseLogger, _getContext: () => AppContext): Realtime {
  return {
    async attach() {},
    sendToUser() {},
    async close() {},
  };
}
