// The plain alternative of bench/reads.ts: Express 5 and postgres.js answering GET /v1/reviews/:id with
// the review's row, selected by its key, with the service's pool size. No authentication, no rate limit,
// no request log: what the service's read costs beyond this is what it adds.
import express from 'express';
import postgres from 'postgres';
import { z } from 'zod';

const env = z
  .object({
    DATABASE_URL: z.string().url(),
    PORT: z.coerce.number().int().positive(),
    DATABASE_POOL_MAX: z.coerce.number().int().positive().default(10),
  })
  .parse(process.env);
const sql = postgres(env.DATABASE_URL, { max: env.DATABASE_POOL_MAX });
const app = express();
app.disable('x-powered-by');
app.get('/v1/reviews/:id', async (req, res) => {
  const [row] = await sql`select * from reviews where id = ${req.params.id}`;
  if (!row) res.status(404).json({ error: 'not found' });
  else res.json(row);
});
app.listen(env.PORT, '127.0.0.1', () => console.log('ready'));
