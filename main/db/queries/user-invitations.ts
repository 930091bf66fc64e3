import type { Insertable } from 'kysely';
import type { UserInvitationsTable } from '../schema.js';
import type { Executor } from './executor.js';

export async function insertInvitation(db: Executor, values: Insertable<UserInvitationsTable>): Promise<number> {
  const row = await db.insertInto('user_invitations').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** A new invitation, or deactivation, makes the user's open invitations unusable. */
export async function supersedeOpenInvitations(db: Executor, organizationId: number, userId: number, now: string): Promise<void> {
  await db
    .updateTable('user_invitations')
    .set({ superseded_at: now })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .where('accepted_at', 'is', null)
    .where('superseded_at', 'is', null)
    .execute();
}

/** The invitation of a token hash, with the invited user (no organization yet: the token is the credential). */
export function findInvitationByTokenHash(db: Executor, tokenHash: string) {
  return db.selectFrom('user_invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** Marks the invitation used; false when it was already used or superseded (a concurrent accept). */
export async function markInvitationAccepted(db: Executor, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('user_invitations')
    .set({ accepted_at: now })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .where('superseded_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
