import type { Insertable } from 'kysely';
import type { SessionsTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertSession(db: Executor, values: Insertable<SessionsTable>): Promise<void> {
  await db.insertInto('sessions').values(values).execute();
}

/** The session with its user, for authenticating a request. */
export function findSessionWithUser(db: Executor, sessionId: string) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id',
      'sessions.organization_id',
      'sessions.user_id',
      'sessions.expires_at',
      'sessions.revoked_at',
      'users.username',
      'users.display_name',
      'users.is_admin',
      'users.active',
    ])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();
}

export async function revokeSession(db: Executor, sessionId: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();
}

/** Ends every live session of a user (deactivation, a new password). */
export async function revokeSessionsOfUser(db: Executor, organizationId: number, userId: number, now: string): Promise<number> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
