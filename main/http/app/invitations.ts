import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AcceptInvitationBody } from '../../common/schemas/users.js';
import { acceptInvitation } from '../../services/users.js';

export const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  // Public: the invitation token is the credential. It sets the password once; the user then signs in.
  app.post('/api/auth/accept-invitation', { config: { public: true }, schema: { body: AcceptInvitationBody } }, async (request) => {
    const { runtime } = request.server.obscura;
    const user = await acceptInvitation(runtime.db, runtime.clock, request.body);
    return { success: true, message: 'Password set; sign in with it', user: { id: user.user_id, username: user.username }, request_id: request.id };
  });
};
