import { randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Executor } from '../db/queries/executor.js';
import { findSessionWithUser, insertSession, revokeSession } from '../db/queries/sessions.js';
import { putSettingIfAbsent } from '../db/queries/settings.js';
import { findUserByUsername } from '../db/queries/users.js';
import { DomainError } from '../common/errors.js';
import { recordChange } from './change-log.js';
import type { Clock } from './context.js';
import { verifyPassword } from './secrets.js';

const ISSUER = 'obscura';
const AUDIENCE = 'obscura-app';
const SIGNING_KEY_SETTING = 'session_signing_key';

export interface SessionUser {
  sessionId: string;
  userId: number;
  organizationId: number;
  username: string;
  displayName: string;
  isAdmin: boolean;
  expiresAt: string;
}

const keyCache = new WeakMap<object, Uint8Array>();

/** The HS256 key, generated once per database and kept in it so sessions survive restarts. */
async function signingKey(db: Executor): Promise<Uint8Array> {
  const cached = keyCache.get(db);
  if (cached) return cached;
  const stored = await putSettingIfAbsent(db, SIGNING_KEY_SETTING, randomBytes(32).toString('base64url'));
  const key = new Uint8Array(Buffer.from(stored, 'base64url'));
  keyCache.set(db, key);
  return key;
}

// Work done for unknown usernames too, so response time does not reveal which usernames exist.
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export type LoginUser = NonNullable<Awaited<ReturnType<typeof findUserByUsername>>>;

/**
 * Checks a username and password outside any transaction: scrypt takes ~100 ms on libuv's thread pool,
 * and holding the single SQLite connection meanwhile stalled every other request. Returns the user, or
 * `failed` with the user when the name exists (for throttling and audit), or null when it does not.
 */
export async function checkPassword(db: Executor, username: string, password: string): Promise<{ ok: true; user: LoginUser } | { ok: false; user: LoginUser | null; reason: string }> {
  const user = (await findUserByUsername(db, username)) ?? null;
  const passwordOk = await verifyPassword(password, user?.password_hash ?? DUMMY_HASH);
  if (!user || !user.password_hash || !passwordOk) return { ok: false, user, reason: 'wrong username or password' };
  if (user.active !== 1) return { ok: false, user, reason: 'this account is deactivated' };
  return { ok: true, user };
}

/** Records a refused sign-in of an existing account (audit log); `locked` when it started a lockout. */
export async function recordLoginFailure(db: Executor, clock: Clock, user: LoginUser, details: { failures: number; locked: boolean; address: string }): Promise<void> {
  const ctx = { actor: { type: 'user' as const, id: String(user.id), organizationId: user.organization_id }, requestId: null, clock };
  await recordChange(db, ctx, { action: 'session.login_failed', resourceType: 'user', resourceId: user.id, details: { failures: details.failures, address: details.address } });
  if (details.locked) await recordChange(db, ctx, { action: 'session.locked_out', resourceType: 'user', resourceId: user.id, details: { failures: details.failures, address: details.address } });
}

/** Checks the password and opens a session; the JWT names the session, which stays revocable in the database. */
export async function login(db: Executor, clock: Clock, username: string, password: string, ttlSeconds: number) {
  const checked = await checkPassword(db, username, password);
  if (!checked.ok) throw new DomainError('authentication_failed', checked.reason);
  return openSession(db, clock, checked.user, ttlSeconds);
}

/** Opens a session for a user whose password was checked; call inside the write transaction. */
export async function openSession(db: Executor, clock: Clock, user: LoginUser, ttlSeconds: number) {
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + ttlSeconds * 1000);
  const sessionId = randomUUID();
  await insertSession(db, {
    id: sessionId,
    organization_id: user.organization_id,
    user_id: user.id,
    created_at: now.toISOString(),
    expires_at: expiresAt.toISOString(),
    revoked_at: null,
  });
  await recordChange(db, { actor: { type: 'user', id: String(user.id), organizationId: user.organization_id }, requestId: null, clock }, {
    action: 'session.create',
    resourceType: 'session',
    resourceId: sessionId,
  });
  const token = await new SignJWT({ sid: sessionId, adm: user.is_admin === 1 })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(String(user.id))
    .setIssuedAt(Math.floor(now.getTime() / 1000))
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(await signingKey(db));
  const sessionUser: SessionUser = {
    sessionId,
    userId: user.id,
    organizationId: user.organization_id,
    username: user.username,
    displayName: user.display_name,
    isAdmin: user.is_admin === 1,
    expiresAt: expiresAt.toISOString(),
  };
  return { token, user: sessionUser };
}

/** Verifies the token's signature and expiry, then that its session is live and its user still active. */
export async function authenticateSession(db: Executor, clock: Clock, token: string | undefined): Promise<SessionUser> {
  if (!token) throw new DomainError('authentication_failed', 'sign in first');
  let sessionId: unknown;
  try {
    const { payload } = await jwtVerify(token, await signingKey(db), { issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'], currentDate: clock.now() });
    sessionId = payload.sid;
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) throw new DomainError('authentication_failed', error instanceof joseErrors.JWTExpired ? 'the session has expired; sign in again' : 'invalid session token');
    throw error;
  }
  if (typeof sessionId !== 'string') throw new DomainError('authentication_failed', 'invalid session token');
  const row = await findSessionWithUser(db, sessionId);
  if (!row || row.revoked_at) throw new DomainError('authentication_failed', 'the session has ended; sign in again');
  if (Date.parse(row.expires_at) <= clock.now().getTime()) throw new DomainError('authentication_failed', 'the session has expired; sign in again');
  if (row.active !== 1) throw new DomainError('authentication_failed', 'this account is deactivated');
  return {
    sessionId: row.id,
    userId: row.user_id,
    organizationId: row.organization_id,
    username: row.username,
    displayName: row.display_name,
    isAdmin: row.is_admin === 1,
    expiresAt: row.expires_at,
  };
}

export async function logout(db: Executor, clock: Clock, user: SessionUser): Promise<void> {
  await revokeSession(db, user.sessionId, clock.now().toISOString());
  await recordChange(db, { actor: { type: 'user', id: String(user.userId), organizationId: user.organizationId }, requestId: null, clock }, {
    action: 'session.revoke',
    resourceType: 'session',
    resourceId: user.sessionId,
  });
}
