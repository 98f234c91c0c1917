// `npm run migrate`: one-shot setup for deployments (docker-compose's `setup` service): database
// migrations, the object bucket and the service's own object-store users (MINIO_API_SECRET_KEY,
// MINIO_WORKER_SECRET_KEY, MINIO_REPORTS_SECRET_KEY, made with the admin credentials it runs with).
// The local stack does the same as part of `npm start`.
import { loadConfigOrExit } from '../src/config.js';
import { migrate } from '../src/db/migrate.js';
import { createStorage, ensureBucket } from '../src/storage/minio.js';
import { adminTargetOf, provisionServiceUsers, SERVICE_USERS } from '../src/storage/service-users.js';

const config = loadConfigOrExit();
await migrate(config, (line) => console.log(line));
if (await ensureBucket(createStorage(config), config.minio.region))
  console.log(`created bucket ${config.minio.bucket}`);
// The service's own users, when their secrets are given (this process runs as the store's admin).
const made = await provisionServiceUsers(adminTargetOf(config), config.minio.bucket, config.minio.provision);
if (made.length > 0) console.log(`storage users ready: ${made.map((role) => SERVICE_USERS[role]).join(', ')}`);
console.log('setup complete');
