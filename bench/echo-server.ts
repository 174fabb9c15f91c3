// The baseline: a bare Fastify (the version lead-intake runs) with one POST route on the
// push path that parses the JSON body and sends it back, and every GET answered with its
// path as JSON (the reference reads' floor, bench/reference.ts). No validation, no auth,
// no database: what HTTP + JSON alone cost on this machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false });

app.post('/v1/api/distributions/:distribution_id/leads/customers', async (request, reply) => {
  return reply.status(201).send(request.body);
});

app.get('/*', async (request) => ({ path: request.url }));

await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
