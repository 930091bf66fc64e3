import { request } from './http.js';
import type { SessionUser } from './types.js';

interface SessionAnswer {
  success: boolean;
  expires_at: string;
  user: SessionUser;
}

export async function signIn(username: string, password: string): Promise<SessionUser> {
  const answer = await request<SessionAnswer>('/api/auth/login', { method: 'POST', body: { username, password } });
  return answer.user;
}

export async function signOut(): Promise<void> {
  await request('/api/auth/logout', { method: 'POST' });
}

/** The signed-in user, or null when there is no live session. */
export async function currentSession(): Promise<SessionUser | null> {
  try {
    const answer = await request<SessionAnswer>('/api/auth/session');
    return answer.user;
  } catch (error) {
    if (error instanceof Error && 'status' in error && (error as { status: number }).status === 401) return null;
    throw error;
  }
}
