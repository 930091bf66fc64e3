import { useCallback, useEffect, useState } from 'react';
import { currentSession, signOut } from './api/auth.js';
import { onSessionEnded } from './api/http.js';
import { desktopShell } from './desktop.js';
import type { SessionUser } from './api/types.js';
import { ErrorBanner } from './components/ErrorBanner.js';
import { Modal } from './components/Modal.js';
import { routeHref, useHashRoute } from './hooks/useHashRoute.js';
import { ScopesContext, SessionContext } from './session.js';
import { request, type Single } from './api/http.js';
import { CaseQueue } from './views/CaseQueue.js';
import { CaseView } from './views/case/CaseView.js';
import { ReleaseScreen } from './views/releases/ReleaseScreen.js';
import { Settings } from './views/settings/Settings.js';
import { SignIn } from './views/SignIn.js';
import { DocumentViewer } from './views/viewer/DocumentViewer.js';

type SessionState = { phase: 'checking' } | { phase: 'signed-out' } | { phase: 'signed-in'; user: SessionUser } | { phase: 'failed'; error: unknown };

export function App() {
  const [session, setSession] = useState<SessionState>({ phase: 'checking' });
  /** The session ended mid-work: sign in again over the current screen so nothing on it is lost. */
  const [expired, setExpired] = useState(false);
  const route = useHashRoute();
  const shell = desktopShell();

  const check = useCallback(() => {
    setSession({ phase: 'checking' });
    currentSession().then(
      (user) => setSession(user ? { phase: 'signed-in', user } : { phase: 'signed-out' }),
      (error: unknown) => setSession({ phase: 'failed', error }),
    );
  }, []);

  useEffect(check, [check]);
  const signedIn = session.phase === 'signed-in';
  const [scopes, setScopes] = useState<ReadonlySet<string>>(new Set());
  const userId = signedIn ? session.user.id : null;
  useEffect(() => {
    if (userId === null) return;
    request<Single<{ user?: { scopes: string[] } }>>('/api/v1/me').then(
      (me) => setScopes(new Set(me.data.user?.scopes ?? [])),
      () => setScopes(new Set()),
    );
  }, [userId]);
  const settingsScopes = ['users:read', 'roles:read', 'credentials:read', 'webhooks:read', 'roles:write'];
  useEffect(() => (signedIn ? onSessionEnded(() => setExpired(true)) : undefined), [signedIn]);

  if (session.phase === 'checking') return <div className="splash" aria-busy="true">Loading Obscura…</div>;
  if (session.phase === 'failed') {
    return (
      <div className="splash">
        <ErrorBanner error={session.error} onRetry={check} />
      </div>
    );
  }
  if (session.phase === 'signed-out') return <SignIn onSignedIn={(user) => setSession({ phase: 'signed-in', user })} />;

  const { user } = session;
  const leave = async () => {
    await signOut().catch(() => undefined);
    setSession({ phase: 'signed-out' });
  };

  return (
    <SessionContext.Provider value={user}>
      <ScopesContext.Provider value={scopes}>
      <div className="app">
        <header className="topbar">
          <a className="brand" href="#/cases">
            <span aria-hidden="true">▮</span> Obscura
          </a>
          <nav aria-label="Main">
            <a href="#/cases" aria-current={route.name === 'queue' || route.name === 'case' || route.name === 'release' || route.name === 'document' ? 'page' : undefined}>
              Cases
            </a>
            {settingsScopes.some((scope) => scopes.has(scope)) && (
              <a href={routeHref({ name: 'settings', section: null })} aria-current={route.name === 'settings' ? 'page' : undefined}>
                Settings
              </a>
            )}
          </nav>
          <div className="topbar-user">
            {shell && <span className="muted-light">Obscura {shell.version}</span>}
            <span title={user.username}>{user.display_name || user.username}</span>
            <button type="button" className="button ghost small" onClick={leave}>
              Sign out
            </button>
          </div>
        </header>
        <main className="content" id="main">
          {route.name === 'queue' && <CaseQueue />}
          {route.name === 'case' && <CaseView key={route.caseId} caseId={route.caseId} />}
          {route.name === 'release' && <ReleaseScreen key={route.caseId} caseId={route.caseId} />}
          {route.name === 'document' && <DocumentViewer key={route.documentId} documentId={route.documentId} caseId={route.caseId} />}
          {route.name === 'settings' && <Settings section={route.section} />}
        </main>
      </div>
      {expired && (
        <Modal title="Session ended" onClose={() => setExpired(false)}>
          <SignIn
            reason="Your session ended. Sign in again; your unsaved work on this screen is kept."
            onSignedIn={(fresh) => {
              setExpired(false);
              setSession({ phase: 'signed-in', user: fresh });
            }}
          />
        </Modal>
      )}
      </ScopesContext.Provider>
    </SessionContext.Provider>
  );
}
