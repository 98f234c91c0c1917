// `npm run codec-server`: the codec server the Temporal UI opens the service's sealed payloads with
// (src/temporal/codec-server.ts), for a deployment; the local stack serves one itself. It holds the
// payload keys and opens whatever it is sent: keep it where only operators reach it (docs/operations.md).
import { loadServiceConfigOrExit } from '../src/config.js';
import { createCodecServer } from '../src/temporal/codec-server.js';
import { PayloadEncryptionCodec } from '../src/temporal/payload-codec.js';

const config = loadServiceConfigOrExit();
const { host, port, allowedOrigins } = config.temporal.codecServer;
const server = createCodecServer(new PayloadEncryptionCodec(config.temporal.payloadKeys), allowedOrigins);
server.listen(port, host, () =>
  console.log(`codec-server: listening on http://${host}:${port} for the Temporal UI at ${allowedOrigins.join(', ')}`),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
