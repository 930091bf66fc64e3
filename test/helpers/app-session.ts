import type { LightMyRequestResponse } from 'fastify';
import { insertUser } from '../../main/db/queries/users.js';
import { hashPassword } from '../../main/services/secrets.js';
import type { TestInstance } from './instance.js';

export interface AppClient {
  token: string;
  userId: string;
  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<LightMyRequestResponse>;
}

/** Signs in through POST /api/auth/login and returns a client sending the Bearer token. */
export async function signIn(instance: TestInstance, username: string, password: string): Promise<AppClient> {
  const login = await instance.server.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { host: instance.host, 'content-type': 'application/json' },
    payload: JSON.stringify({ username, password }),
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.statusCode} ${login.body}`);
  const body = login.json() as { token: string; user: { id: string } };
  return {
    token: body.token,
    userId: body.user.id,
    request(method, url, payload) {
      return instance.server.app.inject({
        method,
        url,
        headers: { host: instance.host, authorization: `Bearer ${body.token}`, ...(payload !== undefined && { 'content-type': 'application/json' }) },
        ...(payload !== undefined && { payload: JSON.stringify(payload) }),
      });
    },
  };
}

/** Signs in as the admin of organization `index` (0-based) created by startInstance. */
export function signInAdmin(instance: TestInstance, index = 0): Promise<AppClient> {
  const org = instance.orgs[index];
  if (!org) throw new Error(`no organization ${index}`);
  return signIn(instance, org.admin_username, org.admin_password);
}

let userCounter = 0;

/** Adds a non-admin user to an organization and signs in as them. */
export async function createUserAndSignIn(instance: TestInstance, index = 0, options: { admin?: boolean } = {}): Promise<AppClient> {
  const org = instance.orgs[index];
  if (!org) throw new Error(`no organization ${index}`);
  const username = `clerk-${process.pid}-${userCounter++}`;
  const password = 'correct horse battery staple';
  const now = new Date().toISOString();
  await insertUser(instance.runtime.db, {
    organization_id: Number(org.organization_id),
    username,
    display_name: `Clerk ${userCounter}`,
    email: null,
    password_hash: await hashPassword(password),
    is_admin: options.admin ? 1 : 0,
    active: 1,
    created_at: now,
    updated_at: now,
  });
  return signIn(instance, username, password);
}
