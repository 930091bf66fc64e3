import { createContext, useContext } from 'react';
import type { SessionUser } from './api/types.js';

export const SessionContext = createContext<SessionUser | null>(null);

/** The signed-in user; views are only rendered inside a session. */
export function useSessionUser(): SessionUser {
  const user = useContext(SessionContext);
  if (!user) throw new Error('useSessionUser outside a signed-in view');
  return user;
}

/** The signed-in user's scopes as the server states them (GET /api/v1/me); empty until known. */
export const ScopesContext = createContext<ReadonlySet<string>>(new Set());

/** Whether the server grants the signed-in user this scope: the window offers only what the user may do. */
export function useCan(scope: string): boolean {
  return useContext(ScopesContext).has(scope);
}
