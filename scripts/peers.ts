// `npm run peers`: the Airtel Money and MTN MoMo loopback peers the tests use, started on fixed
// ports with a few registered wallets, so a newcomer can watch payouts leave through the rails
// on the embedded default. Prints the variables to put in .env; Ctrl-C stops them.
import { AirtelPeer } from '../tests/support/peers/airtel-peer.js';
import { MtnPeer } from '../tests/support/peers/mtn-peer.js';

const AIRTEL_PORT = Number(process.env.AIRTEL_PEER_PORT ?? 4010);
const MTN_PORT = Number(process.env.MTN_PEER_PORT ?? 4011);

const airtel = await new AirtelPeer().start(AIRTEL_PORT);
const mtn = await new MtnPeer().start(MTN_PORT);
// The names the app's sample recipients use, and one that differs, to see the name check stop it.
airtel.register('+24177123456', { first: 'Marie', last: 'Nguema' });
airtel.register('+24174123456', { first: 'Jean', last: 'Ndong' });
airtel.register('+24177654321', { first: 'Paul', last: 'Obame' });
airtel.register('+250721234567', { first: 'Aline', last: 'Uwase' });
mtn.register('+250781234567', { given_name: 'Jean', family_name: 'Habimana' });
mtn.register('+250791234567', { given_name: 'Grace', family_name: 'Mukamana' });

const publicKey = airtel.publicKeyPem.replace(/-----[A-Z ]+-----|\s/g, '');
console.log(`Airtel Money peer on ${airtel.url}, MTN MoMo peer on ${mtn.url}. Put these in .env, start the app, and switch the rails on as an admin (PUT /api/rails/{id} { "enabled": true }):
AIRTEL_BASE_URL=${airtel.url}
AIRTEL_CLIENT_ID=${airtel.clientId}
AIRTEL_CLIENT_SECRET=${airtel.clientSecret}
AIRTEL_PIN=${airtel.pin}
AIRTEL_PUBLIC_KEY=${publicKey}
MTN_MOMO_BASE_URL=${mtn.url}
MTN_MOMO_TARGET_ENVIRONMENT=${mtn.targetEnvironment}
MTN_MOMO_API_USER=${mtn.apiUser}
MTN_MOMO_API_KEY=${mtn.apiKey}
MTN_MOMO_DISBURSEMENT_KEY=${mtn.disbursementKey}
MTN_MOMO_COLLECTION_KEY=${mtn.collectionKey}
Registered wallets: Airtel +24177123456 Marie Nguema, +24174123456 Jean Ndong, +24177654321 Paul Obame, +250721234567 Aline Uwase; MTN +250781234567 Jean Habimana, +250791234567 Grace Mukamana.
A new key pair and MTN credentials are made at each start: copy the lines again after restarting the peers.`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void Promise.all([airtel.stop(), mtn.stop()]).then(() => process.exit(0)));
}
