// Framework ceiling (issue 6): a bare Fastify route with no auth, no database and no plugins,
// answering what GET /ping answers. Started by bench/run.ts as a child process; prints its port.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/api/public/v2/ping', async () => ({ ping: 'pong', version: 'v0.0.0' }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`CEILING_PORT=${app.server.address().port}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
