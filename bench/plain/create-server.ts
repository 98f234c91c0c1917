// The plain alternative of bench/create-burst.ts: bare Express 5 taking a multipart create, each file
// part streamed to MinIO with one putObject, then one row inserted into Postgres, answered 201. No
// authentication, rate limit, idempotency, validation or workflow: what the service's create costs beyond
// this is what it adds.
import express from 'express';
import multer from 'multer';
import { Client } from 'minio';
import postgres from 'postgres';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';

const env = z
  .object({
    DATABASE_URL: z.string().url(),
    PORT: z.coerce.number().int().positive(),
    S3_ENDPOINT: z.string().url(),
    S3_ACCESS_KEY: z.string(),
    S3_SECRET_KEY: z.string(),
    S3_BUCKET: z.string(),
  })
  .parse(process.env);
const sql = postgres(env.DATABASE_URL, { max: 10 });
const endpoint = new URL(env.S3_ENDPOINT);
const minio = new Client({
  endPoint: endpoint.hostname,
  port: Number(endpoint.port),
  useSSL: false,
  accessKey: env.S3_ACCESS_KEY,
  secretKey: env.S3_SECRET_KEY,
  region: 'us-east-1',
});

await sql`create table if not exists plain_creates (id uuid primary key, keys text[] not null, created_at
  timestamptz not null default now())`;

const upload = multer({ storage: multer.memoryStorage() }).array('documents', 100);
const app = express();
app.disable('x-powered-by');
app.post('/v1/reviews', upload, async (req, res) => {
  const files = (req.files ?? []) as Express.Multer.File[];
  const id = randomUUID();
  const keys = await Promise.all(
    files.map(async (f) => {
      const key = `plain/${id}/${randomUUID()}`;
      await minio.putObject(env.S3_BUCKET, key, f.buffer, f.size, { 'Content-Type': f.mimetype });
      return key;
    }),
  );
  await sql`insert into plain_creates (id, keys) values (${id}, ${keys})`;
  res.status(201).json({ review_id: id, document_count: keys.length });
});
app.listen(env.PORT, '127.0.0.1', () => console.log('ready'));
