import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_ROLE_DEFAULTS } from '../../main/common/built-in-roles.js';
import { Case } from '../../main/common/schemas/cases.js';
import { MeUser } from '../../main/common/schemas/me.js';
import { Role } from '../../main/common/schemas/roles.js';
import { User } from '../../main/common/schemas/users.js';
import { ALL_SCOPES } from '../../main/common/scopes.js';
import { assign, createUser, PASSWORD, roleNamed } from '../helpers/access-support.js';
import { signIn } from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, detailFields, errorOf, eventsOf, keyOf, pageOf } from '../helpers/integration-support.js';
import { keyWithScopes } from '../helpers/v1-redactions-support.js';

let instance: TestInstance;

beforeAll(async () => {
  instance = await startInstance({ config: { rateLimits: { enabled: false } } });
});
afterAll(() => instance.close());

const request = (method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE', url: string, body?: unknown, key?: string) =>
  instance.request({ method, url: `/api/v1${url}`, ...(body !== undefined && { body }), ...(key && { key }) });

async function createRole(body: Record<string, unknown>, key?: string): Promise<Role> {
  return dataOf(await request('POST', '/roles', body, key), Role, 201);
}

describe('built-in roles', () => {
  it('every organization starts with admin, redactor, reviewer and viewer; admin has every scope', async () => {
    for (const org of [0, 1]) {
      const roles = pageOf(await request('GET', '/roles', undefined, keyOf(instance, org)), Role).data;
      expect(roles.map((role) => [role.name, role.built_in])).toEqual([
        ['admin', true],
        ['redactor', true],
        ['reviewer', true],
        ['viewer', true],
      ]);
      expect(roles[0]?.scopes).toEqual([...ALL_SCOPES]);
      for (const role of roles.slice(1)) {
        const defaults = BUILT_IN_ROLE_DEFAULTS[role.name as 'redactor' | 'reviewer' | 'viewer'];
        expect(role.scopes).toEqual(ALL_SCOPES.filter((scope) => defaults.scopes.includes(scope)));
      }
    }
    // Each organization has its own rows.
    const first = await roleNamed(instance, 'viewer');
    errorOf(await request('GET', `/roles/${first.id}`, undefined, keyOf(instance, 1)), 404, 'resource_not_found');
  });

  it('cannot be deleted or renamed (409); the admin role keeps every scope; other built-ins may change scopes', async () => {
    const admin = await roleNamed(instance, 'admin');
    const viewer = await roleNamed(instance, 'viewer');
    errorOf(await request('DELETE', `/roles/${admin.id}`), 409, 'conflict');
    errorOf(await request('DELETE', `/roles/${viewer.id}`), 409, 'conflict');
    errorOf(await request('PATCH', `/roles/${viewer.id}`, { name: 'watcher' }), 409, 'conflict');
    errorOf(await request('PATCH', `/roles/${admin.id}`, { scopes: ['cases:read'] }), 409, 'conflict');
    const widened = dataOf(await request('PATCH', `/roles/${viewer.id}`, { scopes: [...viewer.scopes, 'users:read'] }), Role);
    expect(widened.scopes).toContain('users:read');
    dataOf(await request('PATCH', `/roles/${viewer.id}`, { scopes: viewer.scopes }), Role);
    expect(dataOf(await request('GET', `/roles/${admin.id}`), Role).scopes).toEqual([...ALL_SCOPES]);
  });
});

describe('custom roles', () => {
  it('create, read, update, delete; each emits its event with the role', async () => {
    const role = await createRole({ name: 'Intake', description: 'Uploads only', scopes: ['documents:write', 'cases:read', 'documents:read', 'cases:read'] });
    expect(role).toMatchObject({ name: 'Intake', description: 'Uploads only', built_in: false, scopes: ['cases:read', 'documents:read', 'documents:write'] });
    expect(dataOf(await request('GET', `/roles/${role.id}`), Role)).toEqual(role);

    const renamed = dataOf(await request('PATCH', `/roles/${role.id}`, { name: 'Intake desk', scopes: ['cases:read'] }), Role);
    expect(renamed).toMatchObject({ name: 'Intake desk', scopes: ['cases:read'] });
    const noop = await request('PATCH', `/roles/${role.id}`, { name: 'Intake desk' });
    expect(dataOf(noop, Role)).toEqual(renamed);

    expect((await request('DELETE', `/roles/${role.id}`)).statusCode).toBe(204);
    errorOf(await request('GET', `/roles/${role.id}`), 404, 'resource_not_found');

    const events = await eventsOf(instance, 'role', role.id);
    expect(events.map((event) => event.type)).toEqual(['role.created', 'role.updated', 'role.deleted']);
    expect(events[0]?.payload).toEqual({ role });
    expect(events[1]?.payload).toEqual({ role: renamed, changed: ['name', 'scopes'] });
    expect(events[2]?.payload).toEqual({ role: renamed, unassigned_user_ids: [] });
    expect((await auditOf(instance, 'role', role.id)).map((row) => row.action)).toEqual(['role.create', 'role.update', 'role.delete']);
  });

  it.each([
    ['an unknown scope', { name: 'Bad', scopes: ['cases:read', 'cases:admin'] }, 'scopes.1'],
    ['no scopes field', { name: 'Bad' }, 'scopes'],
    ['an empty name', { name: ' ', scopes: [] }, 'name'],
  ])('refuses %s with 400 naming the field', async (_label, body, field) => {
    expect(detailFields(errorOf(await request('POST', '/roles', body), 400, 'validation_error'))).toContain(field);
  });

  it('role names are unique in the organization, case-insensitively (409), but may repeat across organizations', async () => {
    await createRole({ name: 'Auditors', scopes: ['cases:read'] });
    errorOf(await request('POST', '/roles', { name: 'auditors', scopes: [] }), 409, 'conflict');
    errorOf(await request('POST', '/roles', { name: 'Viewer', scopes: [] }), 409, 'conflict');
    await createRole({ name: 'Auditors', scopes: [] }, keyOf(instance, 1));
  });
});

describe('assignment', () => {
  it("a user's scopes follow their roles: assign, use, unassign; events role.assigned and role.unassigned", async () => {
    const user = await createUser(instance, { password: PASSWORD });
    const session = await signIn(instance, user.username, PASSWORD);
    const casesWithSession = () =>
      instance.server.app.inject({ method: 'GET', url: '/api/v1/cases', headers: { host: instance.host, authorization: `Bearer ${session.token}` } });
    errorOf(await casesWithSession(), 403, 'permission_denied');

    const role = await createRole({ name: 'Case readers', scopes: ['cases:read'] });
    const assigned = await assign(instance, user.id, role.id);
    expect(assigned.roles).toEqual([{ id: role.id, name: 'Case readers' }]);
    pageOf(await casesWithSession(), Case);
    // Assigning again changes nothing and emits nothing.
    await assign(instance, user.id, role.id);

    expect((await request('DELETE', `/users/${user.id}/roles/${role.id}`)).statusCode).toBe(204);
    expect((await request('DELETE', `/users/${user.id}/roles/${role.id}`)).statusCode).toBe(204);
    errorOf(await casesWithSession(), 403, 'permission_denied');
    expect(dataOf(await request('GET', `/users/${user.id}`), User).roles).toEqual([]);

    const events = await eventsOf(instance, 'role', role.id);
    expect(events.map((event) => event.type)).toEqual(['role.created', 'role.assigned', 'role.unassigned']);
    expect(events[1]?.payload).toMatchObject({ role: { id: role.id }, user: { id: user.id, roles: [{ id: role.id }] } });
    expect(events[2]?.payload).toMatchObject({ role: { id: role.id }, user: { id: user.id, roles: [] } });
  });

  it('deleting a role takes it from its holders at once', async () => {
    const user = await createUser(instance, { password: PASSWORD });
    const role = await createRole({ name: 'Temporary', scopes: ['cases:read'] });
    await assign(instance, user.id, role.id);
    const session = await signIn(instance, user.username, PASSWORD);
    const me = () => instance.server.app.inject({ method: 'GET', url: '/api/v1/me', headers: { host: instance.host, authorization: `Bearer ${session.token}` } });
    expect(dataOf(await me(), MeUser).user.scopes).toEqual(['cases:read']);
    expect((await request('DELETE', `/roles/${role.id}`)).statusCode).toBe(204);
    expect(dataOf(await me(), MeUser).user).toMatchObject({ scopes: [], roles: [] });
    expect((await eventsOf(instance, 'role', role.id)).at(-1)?.payload.unassigned_user_ids).toEqual([user.id]);
  });

  it('the admin role makes the user an administrator; the last administrator cannot lose it (409)', async () => {
    const admin = await roleNamed(instance, 'admin');
    const user = await createUser(instance);
    expect((await assign(instance, user.id, admin.id)).is_admin).toBe(true);
    expect((await request('DELETE', `/users/${user.id}/roles/${admin.id}`)).statusCode).toBe(204);
    expect(dataOf(await request('GET', `/users/${user.id}`), User).is_admin).toBe(false);

    const original = pageOf(await request('GET', '/users?limit=100'), User).data.find((item) => item.username === instance.orgs[0]?.admin_username);
    errorOf(await request('DELETE', `/users/${original?.id}/roles/${admin.id}`), 409, 'conflict');
  });

  it('unknown user or role → 404; a role of another organization → 404', async () => {
    const user = await createUser(instance);
    const role = await createRole({ name: 'Lonely', scopes: [] });
    errorOf(await request('PUT', `/users/99999999/roles/${role.id}`), 404, 'resource_not_found');
    errorOf(await request('PUT', `/users/${user.id}/roles/99999999`), 404, 'resource_not_found');
    const foreign = await createRole({ name: 'Foreign', scopes: [] }, keyOf(instance, 1));
    errorOf(await request('PUT', `/users/${user.id}/roles/${foreign.id}`), 404, 'resource_not_found');
  });
});

describe('no escalation', () => {
  it('a caller with roles:write cannot create, widen, assign or delete roles beyond its own scopes (403 naming them)', async () => {
    const limited = await keyWithScopes(instance, ['roles:read', 'roles:write', 'cases:read']);
    const fine = await createRole({ name: 'Readers only', scopes: ['cases:read'] }, limited);

    const tooMuch = errorOf(await request('POST', '/roles', { name: 'Grab', scopes: ['cases:read', 'credentials:write'] }, limited), 403, 'permission_denied');
    expect(tooMuch.details).toEqual({ required_scopes: ['credentials:write'] });
    errorOf(await request('PATCH', `/roles/${fine.id}`, { scopes: ['cases:read', 'users:write'] }, limited), 403, 'permission_denied');

    const user = await createUser(instance);
    const admin = await roleNamed(instance, 'admin');
    errorOf(await request('PUT', `/users/${user.id}/roles/${admin.id}`, undefined, limited), 403, 'permission_denied');
    await assign(instance, user.id, fine.id, limited);

    const strong = await createRole({ name: 'Strong', scopes: ['users:write'] });
    errorOf(await request('DELETE', `/roles/${strong.id}`, undefined, limited), 403, 'permission_denied');
    expect(dataOf(await request('GET', `/roles/${strong.id}`), Role).name).toBe('Strong');
  });
});
