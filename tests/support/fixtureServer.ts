import { type ServerProcess, startServerProcess } from './serverProcess';

/*
 * The readability fixture: the product's server on an embedded PostgreSQL of its own, whose demo malls have 300
 * outlets each and whose outlet, category and payment method names are 60 characters long, serving the built app
 * with the demo's stand-ins, as `npm start` would on loopback. For the readability check and the screenshots.
 */
export function startLongNamesServer(port: number): Promise<ServerProcess> {
  return startServerProcess({
    port,
    timeoutMs: 280_000,
    env: {
      DEMO_OUTLETS_PER_MALL: '300',
      DEMO_LONG_NAMES: 'true',
      DEMO_RECEIPTS: '20000',
      PASSWORD_HASH_COST: '14',
      STATIC_DIR: 'dist',
      DOWNLOAD_SECRET: '',
      SSO_DEMO: '',
      XERO_DEMO: '',
      GTO_REMINDERS_EVERY_MINUTES: '',
      LOG_LEVEL: 'warn',
    },
  });
}
