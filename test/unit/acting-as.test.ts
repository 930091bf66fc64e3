import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../main/common/errors.js';
import { assertActingAs } from '../../main/http/app/session.js';
import type { SessionUser } from '../../main/services/sessions.js';

// The rule every `user_id` parameter of the application API (OCR and AI-summary endpoints) goes through.
function requestAs(user: Partial<SessionUser>): FastifyRequest {
  const sessionUser: SessionUser = {
    sessionId: 's',
    userId: 7,
    organizationId: 1,
    username: 'clerk',
    displayName: 'Clerk',
    isAdmin: false,
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
    ...user,
  };
  return { sessionUser } as unknown as FastifyRequest;
}

describe('user_id parameters', () => {
  it('may name the signed-in user, or be left out', () => {
    expect(() => assertActingAs(requestAs({}), '7')).not.toThrow();
    expect(() => assertActingAs(requestAs({}), undefined)).not.toThrow();
  });

  it('may not name another user unless the session is an administrator', () => {
    let caught: unknown;
    try {
      assertActingAs(requestAs({}), '8');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect((caught as DomainError).code).toBe('permission_denied');
    expect(() => assertActingAs(requestAs({ isAdmin: true }), '8')).not.toThrow();
  });
});
