import { useEffect, useRef, useState } from 'react';
import { parseRoute, routeHref, type Route } from '../domain/routes.js';

export { parseRoute, routeHref, type Route };

/** Hash routes: the server serves one index.html, and the Electron menu navigates by hash. */
export function navigate(route: Route): void {
  window.location.hash = routeHref(route);
}

type LeaveGuard = () => string | null;
let leaveGuard: LeaveGuard | null = null;

/**
 * While set, leaving the current view asks first: the guard returns the question (e.g. unsaved redactions) or
 * null when leaving loses nothing. Returns the function that removes it.
 */
export function setLeaveGuard(guard: LeaveGuard): () => void {
  leaveGuard = guard;
  return () => {
    if (leaveGuard === guard) leaveGuard = null;
  };
}

export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  const shown = useRef(window.location.hash);
  useEffect(() => {
    const update = () => {
      const next = window.location.hash;
      if (next === shown.current) return;
      const question = leaveGuard?.();
      if (question && !window.confirm(question)) {
        // Stay: put the address back without another hashchange.
        window.history.replaceState(null, '', shown.current || '#/cases');
        return;
      }
      shown.current = next;
      setRoute(parseRoute(next));
    };
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
