// `npm run codec-server`: the codec server the Temporal UI opens the service's sealed payloads with
// (src/temporal/codec-server.ts), for a deployment; the local stack serves one itself. It holds the
// payload keys, so in production it starts only when it asks for a credential: a bearer token
// (CODEC_SERVER_TOKEN) or a client certificate signed by CODEC_SERVER_TLS_CLIENT_CA (docs/operations.md).
import { readFileSync } from 'node:fs';
import { loadServiceConfigOrExit } from '../src/config.js';
import { codecServerProblems, createCodecServer } from '../src/temporal/codec-server.js';
import { PayloadEncryptionCodec } from '../src/temporal/payload-codec.js';

const config = loadServiceConfigOrExit();
const settings = config.temporal.codecServer;
const problems = config.env === 'production' ? codecServerProblems(settings) : [];
if (problems.length > 0) {
  console.error(`Invalid configuration:\n${problems.join('\n')}`);
  process.exit(1);
}
const { tls } = settings;
const server = createCodecServer(
  new PayloadEncryptionCodec(config.temporal.payloadKeys),
  settings,
  tls && {
    cert: readFileSync(tls.certFile),
    key: readFileSync(tls.keyFile),
    ...(tls.clientCaFile ? { clientCa: readFileSync(tls.clientCaFile) } : {}),
  },
);
const credential = settings.token ? 'a bearer token' : tls?.clientCaFile ? 'a client certificate' : 'no credential';
server.listen(settings.port, settings.host, () =>
  console.log(
    `codec-server: listening on ${tls ? 'https' : 'http'}://${settings.host}:${settings.port} for the Temporal UI ` +
      `at ${settings.allowedOrigins.join(', ')}; asks for ${credential}${settings.encode ? '; serves /encode' : ''}`,
  ),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
