import type { LightMyRequestResponse } from 'fastify';
import { z } from 'zod';
import { IssuedApiKey } from '../../main/common/schemas/credentials.js';
import { Role } from '../../main/common/schemas/roles.js';
import { Invitation, User } from '../../main/common/schemas/users.js';
import type { TestInstance } from './instance.js';
import { dataOf, pageOf } from './integration-support.js';

// Fixtures for the access suites (users, roles, service accounts, keys), all made through the API.

/** A first answer (not a replay) carries the one-time secret or token. */
export const FreshKey = IssuedApiKey.extend({ secret: z.string() });
export type FreshKey = z.infer<typeof FreshKey>;
export const FreshInvitation = Invitation.extend({ token: z.string() });
export type FreshInvitation = z.infer<typeof FreshInvitation>;

let counter = 0;

/** A username no other test of this process uses (usernames are global). */
export function uniqueUsername(prefix = 'user'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export const PASSWORD = 'a long enough passphrase';

/** Creates a user through POST /users with the organization's full key (or `key`). */
export async function createUser(instance: TestInstance, body: Record<string, unknown> = {}, key?: string): Promise<User> {
  const response = await instance.request({
    method: 'POST',
    url: '/api/v1/users',
    body: { username: uniqueUsername(), display_name: 'Test User', ...body },
    ...(key && { key }),
  });
  return dataOf(response, User, 201);
}

export async function roleNamed(instance: TestInstance, name: string, key?: string): Promise<Role> {
  const page = pageOf(await instance.request({ method: 'GET', url: '/api/v1/roles?limit=100', ...(key && { key }) }), Role);
  const role = page.data.find((item) => item.name === name);
  if (!role) throw new Error(`no role ${name}`);
  return role;
}

export async function assign(instance: TestInstance, userId: string, roleId: string, key?: string): Promise<User> {
  return dataOf(await instance.request({ method: 'PUT', url: `/api/v1/users/${userId}/roles/${roleId}`, ...(key && { key }) }), User);
}

export async function invite(instance: TestInstance, userId: string, key?: string): Promise<FreshInvitation> {
  return dataOf(await instance.request({ method: 'POST', url: `/api/v1/users/${userId}/invitations`, ...(key && { key }) }), FreshInvitation, 201);
}

/** POST /api/auth/accept-invitation, unauthenticated. */
export function acceptInvitation(instance: TestInstance, token: string, password: string): Promise<LightMyRequestResponse> {
  return instance.server.app.inject({
    method: 'POST',
    url: '/api/auth/accept-invitation',
    headers: { host: instance.host, 'content-type': 'application/json' },
    payload: JSON.stringify({ token, password }),
  });
}
