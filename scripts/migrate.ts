// `npm run migrate`: one-shot setup for deployments (docker-compose's `setup` service): database
// migrations and the object bucket. The local stack does the same as part of `npm start`.
import { loadConfigOrExit } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { createStorage, ensureBucket } from '../src/storage/minio.js';

const config = loadConfigOrExit();
await migrate(config, (line) => console.log(line));
if (await ensureBucket(createStorage(config), config.minio.region)) console.log(`created bucket ${config.minio.bucket}`);
console.log('setup complete');
