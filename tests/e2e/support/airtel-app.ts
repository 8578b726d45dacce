import { afterAll, beforeAll } from 'vitest';
import { AirtelPeer } from '../../support/peers/airtel-peer.js';
import { useE2eApp } from './fixtures.js';

/**
 * The app (with its SMTP listener) whose Airtel rails talk to an Airtel peer of the file's own,
 * which posts its callbacks to the app as Airtel does. `env` adds to the peer's variables.
 */
export function useAirtelE2eApp(env: () => Record<string, string> = () => ({})) {
  const airtel = new AirtelPeer();
  beforeAll(async () => { await airtel.start(); });
  afterAll(async () => { await airtel.stop(); });
  const app = useE2eApp({ smtp: true, env: () => ({ ...airtel.env(), ...env() }) });
  beforeAll(() => { airtel.callbackUrl = `${app.server.url}/api/rails/airtel/callback`; });
  return { airtel, app };
}
