import { createContext, useContext } from 'react';
import type { SessionUser } from './api/types.js';

export const SessionContext = createContext<SessionUser | null>(null);

/** The signed-in user; views are only rendered inside a session. */
export function useSessionUser(): SessionUser {
  const user = useContext(SessionContext);
  if (!user) throw new Error('useSessionUser outside a signed-in view');
  return user;
}
