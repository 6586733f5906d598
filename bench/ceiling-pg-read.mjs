// Database read ceiling (issue 6, PostgreSQL only): GET /locations with only the SQL a correct
// answer needs — the API key by its hash and the workspace slug, one page of live locations and
// the total — over a raw `pg` pool of the server's size, on the same Fastify, no other layers.
// Both statements are named (prepared once per connection), as the server's are.
// Started by bench/run.ts as a child process with DATABASE_URL; prints its port.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify({ logger: false });

app.get('/api/public/v2/locations', async (request, reply) => {
  const secret = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? '')?.[1];
  const slug = request.headers.workspace;
  if (!secret || typeof slug !== 'string') return reply.status(403).send({ code: 'invalid_token' });
  const key = await pool.query({
    name: 'ceiling_key',
    text: `SELECT w.id FROM workspaces w
       JOIN api_keys k ON k.workspace_id = w.id AND k.secret_hash = $1 AND k.deleted_at IS NULL
      WHERE w.slug = $2`,
    values: [createHash('sha256').update(secret).digest('hex'), slug],
  });
  if (key.rows.length === 0) return reply.status(403).send({ code: 'invalid_token' });
  const page = await pool.query({
    name: 'ceiling_page',
    text: `SELECT *, count(*) OVER () AS total FROM locations
      WHERE workspace_id = $1 AND archived_at IS NULL
      ORDER BY created_at, id LIMIT 15 OFFSET 0`,
    values: [key.rows[0].id],
  });
  const total = Number(page.rows[0]?.total ?? 0);
  return {
    data: page.rows,
    meta: { current_page: 1, last_page: Math.max(1, Math.ceil(total / 15)), per_page: 15, total },
  };
});

await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`CEILING_PORT=${app.server.address().port}`);
process.on('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);
