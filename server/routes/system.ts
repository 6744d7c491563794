import type { Handlers, RouteDeps } from './types.js';

export function systemHandlers({ pool }: RouteDeps): Handlers {
  return {
    async getHealth() {
      await pool.query('SELECT 1');
      return { status: 'ok' };
    },
  };
}
