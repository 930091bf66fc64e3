import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Invitation, User } from '../../main/common/schemas/users.js';
import { Case } from '../../main/common/schemas/cases.js';
import { acceptInvitation, assign, createUser, FreshInvitation, invite, PASSWORD, roleNamed, uniqueUsername } from '../helpers/access-support.js';
import { loginRaw, signIn, signInAdmin } from '../helpers/app-session.js';
import { startInstance, type TestInstance } from '../helpers/instance.js';
import { auditOf, dataOf, detailFields, errorOf, eventsOf, keyOf, manualClock, pageOf, type Page } from '../helpers/integration-support.js';
import { keyWithScopes } from '../helpers/v1-redactions-support.js';

const clock = manualClock('2031-05-01T08:00:00.000Z');
let instance: TestInstance;

beforeAll(async () => {
  instance = await startInstance({ clock, config: { rateLimits: { enabled: false }, access: { invitationTtlSeconds: 3600 } } });
});
afterAll(() => instance.close());

const get = (url: string, key?: string) => instance.request({ method: 'GET', url, ...(key && { key }) });

describe('users', () => {
  it('creates a user with a password (201), who can sign in; user.created is emitted and audited', async () => {
    const username = uniqueUsername('clerk');
    const user = await createUser(instance, { username, display_name: 'Records Clerk', email: 'clerk@example.gov', password: PASSWORD });
    expect(user).toMatchObject({ username, display_name: 'Records Clerk', email: 'clerk@example.gov', is_admin: false, active: true, has_password: true, roles: [] });
    expect(user.deactivated_at).toBeNull();
    expect(dataOf(await get(`/api/v1/users/${user.id}`), User)).toEqual(user);
    expect((await loginRaw(instance, username, PASSWORD)).statusCode).toBe(200);

    const events = await eventsOf(instance, 'user', user.id);
    expect(events.map((event) => event.type)).toEqual(['user.created']);
    expect(events[0]?.payload).toEqual({ user });
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
    expect((await auditOf(instance, 'user', user.id)).map((row) => row.action)).toEqual(['user.create']);
    const stored = await instance.runtime.db.selectFrom('users').select('password_hash').where('id', '=', Number(user.id)).executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^scrypt\$/);
  });

  it('lists users page by page, filters by active, and never shows another organization', async () => {
    const created = [await createUser(instance), await createUser(instance), await createUser(instance)];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page<User> = pageOf(await get(`/api/v1/users?limit=2${cursor ? `&cursor=${cursor}` : ''}`), User);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((user) => user.id));
      cursor = page.cursor;
    } while (cursor);
    for (const user of created) expect(seen).toContain(user.id);
    expect(new Set(seen).size).toBe(seen.length);

    const otherOrg = await createUser(instance, {}, keyOf(instance, 1));
    expect(seen).not.toContain(otherOrg.id);
    errorOf(await get(`/api/v1/users/${otherOrg.id}`), 404, 'resource_not_found');

    const admin = pageOf(await get('/api/v1/users?limit=100'), User).data.find((user) => user.username === instance.orgs[0]?.admin_username);
    expect(admin).toMatchObject({ is_admin: true, roles: [{ name: 'admin' }] });
  });

  it('usernames are unique across the installation (sign-in names no organization): 409', async () => {
    const first = await createUser(instance);
    const again = await instance.request({ method: 'POST', url: '/api/v1/users', body: { username: first.username.toUpperCase(), display_name: 'Dup' } });
    errorOf(again, 409, 'conflict');
    const elsewhere = await instance.request({ method: 'POST', url: '/api/v1/users', key: keyOf(instance, 1), body: { username: first.username, display_name: 'Dup' } });
    errorOf(elsewhere, 409, 'conflict');
  });

  it.each([
    ['a short password', { username: 'shorty', display_name: 'S', password: 'short' }, 'password'],
    ['a username with spaces', { username: 'two words', display_name: 'S' }, 'username'],
    ['no display name', { username: 'nodisplay' }, 'display_name'],
    ['an unknown field', { username: 'extra', display_name: 'S', is_admin: true }, 'body'],
    ['a bad email', { username: 'mail', display_name: 'S', email: 'not-an-email' }, 'email'],
  ])('refuses %s with 400 naming the field', async (_label, body, field) => {
    const error = errorOf(await instance.request({ method: 'POST', url: '/api/v1/users', body }), 400, 'validation_error');
    expect(detailFields(error)).toContain(field);
  });

  it('updates fields; user.updated names what changed; an unchanged PATCH emits nothing', async () => {
    const user = await createUser(instance);
    const updated = dataOf(await instance.request({ method: 'PATCH', url: `/api/v1/users/${user.id}`, body: { display_name: 'Renamed', email: null } }), User);
    expect(updated).toMatchObject({ display_name: 'Renamed', email: null, username: user.username });
    dataOf(await instance.request({ method: 'PATCH', url: `/api/v1/users/${user.id}`, body: { display_name: 'Renamed' } }), User);
    const events = await eventsOf(instance, 'user', user.id);
    expect(events.map((event) => [event.type, event.payload.changed])).toEqual([
      ['user.created', undefined],
      ['user.updated', ['display_name']],
    ]);
    errorOf(await instance.request({ method: 'PATCH', url: `/api/v1/users/${user.id}`, body: {} }), 400, 'validation_error');
    errorOf(await instance.request({ method: 'PATCH', url: '/api/v1/users/99999999', body: { display_name: 'x' } }), 404, 'resource_not_found');
  });
});

describe('invitations', () => {
  it('a user without a password cannot sign in until they accept an invitation; the token works once', async () => {
    const user = await createUser(instance);
    expect(user.has_password).toBe(false);
    expect((await loginRaw(instance, user.username, PASSWORD)).statusCode).toBe(401);

    const invitation = await invite(instance, user.id);
    expect(invitation).toMatchObject({ user_id: user.id, accept_path: '/api/auth/accept-invitation', expires_at: '2031-05-01T09:00:00.000Z' });
    expect(invitation.token).toMatch(/^inv_[A-Za-z0-9_-]{43}$/);
    const stored = await instance.runtime.db.selectFrom('user_invitations').selectAll().where('user_id', '=', Number(user.id)).execute();
    expect(JSON.stringify(stored)).not.toContain(invitation.token);

    const events = await eventsOf(instance, 'user', user.id);
    expect(events.map((event) => event.type)).toEqual(['user.created', 'user.invited']);
    expect(events[1]?.payload.expires_at).toBe(invitation.expires_at);
    expect(JSON.stringify(events)).not.toContain(invitation.token);

    const weak = await acceptInvitation(instance, invitation.token, 'short');
    expect(weak.statusCode).toBe(400);
    const accepted = await acceptInvitation(instance, invitation.token, PASSWORD);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ success: true, user: { id: user.id, username: user.username } });
    expect((await loginRaw(instance, user.username, PASSWORD)).statusCode).toBe(200);
    expect(dataOf(await get(`/api/v1/users/${user.id}`), User).has_password).toBe(true);

    const reused = await acceptInvitation(instance, invitation.token, 'another long passphrase');
    expect(reused.statusCode).toBe(401);
    expect(reused.json()).toMatchObject({ success: false, code: 'authentication_failed' });
    expect((await loginRaw(instance, user.username, 'another long passphrase')).statusCode).toBe(401);
  });

  it('a replayed invitation request answers without the token, which is stored nowhere', async () => {
    const user = await createUser(instance);
    const url = `/api/v1/users/${user.id}/invitations`;
    const first = dataOf(await instance.request({ method: 'POST', url, idempotencyKey: `invite-${user.id}` }), FreshInvitation, 201);
    const replay = await instance.request({ method: 'POST', url, idempotencyKey: `invite-${user.id}` });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    // A replay carries the original request_id in its body (docs/api.md, Idempotency).
    expect(Invitation.parse(JSON.parse(replay.body).data)).toEqual({ ...first, token: null });
    expect(JSON.stringify(await instance.runtime.db.selectFrom('idempotency_keys').selectAll().execute())).not.toContain(first.token);
    expect((await acceptInvitation(instance, first.token, PASSWORD)).statusCode).toBe(200);
  });

  it('expires after invitationTtlSeconds, and a newer invitation replaces the older one', async () => {
    const user = await createUser(instance);
    const expiring = await invite(instance, user.id);
    clock.advance(3600_000);
    expect((await acceptInvitation(instance, expiring.token, PASSWORD)).statusCode).toBe(401);

    const older = await invite(instance, user.id);
    const newer = await invite(instance, user.id);
    expect((await acceptInvitation(instance, older.token, PASSWORD)).statusCode).toBe(401);
    expect((await acceptInvitation(instance, newer.token, PASSWORD)).statusCode).toBe(200);
    expect((await acceptInvitation(instance, 'inv_unknown', PASSWORD)).statusCode).toBe(401);
  });

  it('used as a password reset, it ends the sessions signed in with the old password', async () => {
    const user = await createUser(instance, { password: PASSWORD });
    await assign(instance, user.id, (await roleNamed(instance, 'viewer')).id);
    const session = await signIn(instance, user.username, PASSWORD);
    expect((await session.request('GET', '/api/auth/session')).statusCode).toBe(200);
    const reset = await invite(instance, user.id);
    expect((await acceptInvitation(instance, reset.token, 'a brand new passphrase')).statusCode).toBe(200);
    expect((await session.request('GET', '/api/auth/session')).statusCode).toBe(401);
    expect((await loginRaw(instance, user.username, PASSWORD)).statusCode).toBe(401);
    expect((await loginRaw(instance, user.username, 'a brand new passphrase')).statusCode).toBe(200);
  });
});

describe('deactivation', () => {
  it('ends every session at once, refuses sign-in, voids open invitations; reactivation lets the user sign in again', async () => {
    const user = await createUser(instance, { password: PASSWORD });
    await assign(instance, user.id, (await roleNamed(instance, 'redactor')).id);
    const session = await signIn(instance, user.username, PASSWORD);
    const v1 = () =>
      instance.server.app.inject({ method: 'GET', url: '/api/v1/cases', headers: { host: instance.host, authorization: `Bearer ${session.token}` } });
    pageOf(await v1(), Case);
    const pending = await invite(instance, user.id);

    const deactivated = dataOf(await instance.request({ method: 'POST', url: `/api/v1/users/${user.id}/deactivate` }), User);
    expect(deactivated).toMatchObject({ active: false, deactivated_at: clock.now().toISOString() });
    errorOf(await v1(), 401, 'authentication_failed');
    expect((await session.request('GET', '/api/auth/session')).statusCode).toBe(401);
    expect((await loginRaw(instance, user.username, PASSWORD)).statusCode).toBe(401);
    expect((await acceptInvitation(instance, pending.token, 'a brand new passphrase')).statusCode).toBe(401);
    const sessions = await instance.runtime.db.selectFrom('sessions').select('revoked_at').where('user_id', '=', Number(user.id)).execute();
    expect(sessions.every((row) => row.revoked_at !== null)).toBe(true);
    errorOf(await instance.request({ method: 'POST', url: `/api/v1/users/${user.id}/invitations` }), 409, 'conflict');

    // Deactivating again changes nothing and emits nothing.
    dataOf(await instance.request({ method: 'POST', url: `/api/v1/users/${user.id}/deactivate` }), User);
    const types = (await eventsOf(instance, 'user', user.id)).map((event) => event.type);
    expect(types.filter((type) => type === 'user.deactivated')).toHaveLength(1);

    expect(pageOf(await get('/api/v1/users?active=false&limit=100'), User).data.map((item) => item.id)).toContain(user.id);
    expect(pageOf(await get('/api/v1/users?active=true&limit=100'), User).data.map((item) => item.id)).not.toContain(user.id);

    const reactivated = dataOf(await instance.request({ method: 'POST', url: `/api/v1/users/${user.id}/reactivate` }), User);
    expect(reactivated).toMatchObject({ active: true, deactivated_at: null });
    errorOf(await v1(), 401, 'authentication_failed');
    expect((await loginRaw(instance, user.username, PASSWORD)).statusCode).toBe(200);
    expect((await eventsOf(instance, 'user', user.id)).at(-1)).toMatchObject({ type: 'user.updated', payload: { changed: ['active'] } });
  });

  it("the organization's last active administrator cannot be deactivated (409)", async () => {
    const admins = pageOf(await get('/api/v1/users?limit=100&active=true'), User).data.filter((user) => user.roles.some((role) => role.name === 'admin'));
    expect(admins).toHaveLength(1);
    const only = admins[0]!;
    errorOf(await instance.request({ method: 'POST', url: `/api/v1/users/${only.id}/deactivate` }), 409, 'conflict');
    const second = await createUser(instance, { password: PASSWORD });
    await assign(instance, second.id, (await roleNamed(instance, 'admin')).id);
    dataOf(await instance.request({ method: 'POST', url: `/api/v1/users/${second.id}/deactivate` }), User);
    errorOf(await instance.request({ method: 'POST', url: `/api/v1/users/${only.id}/deactivate` }), 409, 'conflict');
    // The administrator still works.
    await signInAdmin(instance);
  });

  it('a caller cannot manage a user who holds scopes the caller lacks (no takeover by invitation)', async () => {
    const limited = await keyWithScopes(instance, ['users:read', 'users:write']);
    const adminId = pageOf(await get('/api/v1/users?limit=100'), User).data.find((user) => user.username === instance.orgs[0]?.admin_username)?.id;
    const denied = errorOf(await instance.request({ method: 'POST', url: `/api/v1/users/${adminId}/invitations`, key: limited }), 403, 'permission_denied');
    expect(denied.details).toEqual({ required_scopes: expect.arrayContaining(['cases:read', 'credentials:write']) });
    errorOf(await instance.request({ method: 'POST', url: `/api/v1/users/${adminId}/deactivate`, key: limited }), 403, 'permission_denied');
    // A user without roles holds nothing more than the caller: manageable.
    const plain = await createUser(instance, {}, limited);
    await invite(instance, plain.id, limited);
  });
});
