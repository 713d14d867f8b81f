// The baseline: a bare hello-world route of the same HTTP framework (Fastify), no logging, no hooks.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ hello: 'world' }));
const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`LISTENING ${address}\n`);
