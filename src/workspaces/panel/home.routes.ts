import type { FastifyInstance } from 'fastify';
import { sessionOf } from '../../panel-kit/panel-auth.js';
import { HomePage } from './home.page.js';

export function homeRoutes(panel: FastifyInstance): void {
  panel.get('/', async (request, reply) => {
    const session = sessionOf(request);
    return reply.page({ title: session.workspace.name, body: HomePage({ session }) });
  });
}
