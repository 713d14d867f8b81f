// The baselines, in one Fastify process with no logging and no hooks: a bare hello-world route, and a
// schema-validated POST that answers a fixed ~2 KB JSON body (about the size of the paid call's answer).
import Fastify from 'fastify';

const app = Fastify({ logger: false, ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true } } });
app.get('/hello', async () => ({ hello: 'world' }));

const answer = JSON.stringify({ success: true, data: { text: 'x'.repeat(1800) }, creditsUsed: 2, requestId: 'req_0' });
const schema = {
  body: {
    type: 'object',
    additionalProperties: false,
    required: ['subforum'],
    properties: {
      subforum: { type: 'string', pattern: '^[A-Za-z0-9_]{2,21}$' },
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
      tags: { type: 'array', maxItems: 10, items: { type: 'string', pattern: '^[A-Za-z0-9_.:-]{1,50}$' } },
    },
  },
};
app.post('/validated', { schema }, async (_request, reply) => {
  reply.header('content-type', 'application/json; charset=utf-8');
  return reply.send(answer);
});

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`LISTENING ${address}\n`);
