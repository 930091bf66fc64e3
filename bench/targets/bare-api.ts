// The baseline: a bare Fastify server with one route answering the same path with fixed JSON bytes
// (the body a real Obscura instance returned), no hooks, no database.
import Fastify from 'fastify';
import { serveTarget, targetInput } from '../lib/target.js';

export interface BareTargetInput {
  path: string;
  body: string;
}

const input = targetInput<BareTargetInput>();
const app = Fastify({ logger: false });
// Same route shape as the real one, so routing costs the same.
const route = input.path.replace(/\/[^/]+$/, '/:case_id');
app.get(route, (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(input.body);
});
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
serveTarget({ baseUrl: `http://127.0.0.1:${port}` }, () => app.close());
