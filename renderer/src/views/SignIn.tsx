import { useState, type FormEvent } from 'react';
import { signIn } from '../api/auth.js';
import type { SessionUser } from '../api/types.js';
import { ErrorBanner } from '../components/ErrorBanner.js';
import { ApiError } from '../api/errors.js';

interface Props {
  onSignedIn: (user: SessionUser) => void;
  /** Shown when the session ended while working; the work on screen stays as it was. */
  reason?: string | undefined;
}

export function SignIn({ onSignedIn, reason }: Props) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(username.trim(), password));
    } catch (failure) {
      setError(failure instanceof ApiError && failure.status === 401 ? new Error('The user name or password is not right.') : failure);
      setBusy(false);
    }
  };

  return (
    <div className="signin">
      <form className="signin-card" onSubmit={submit} aria-labelledby="signin-title">
        <div className="brand-large" aria-hidden="true">
          ▮ Obscura
        </div>
        <h1 id="signin-title">Sign in</h1>
        {reason && <p className="muted">{reason}</p>}
        <label className="field">
          <span>User name</span>
          <input name="username" autoComplete="username" value={username} onChange={(event) => setUsername(event.target.value)} required autoFocus />
        </label>
        <label className="field">
          <span>Password</span>
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(event) => setPassword(event.target.value)} required />
        </label>
        <ErrorBanner error={error} />
        <button type="submit" className="button primary block" disabled={busy || !username || !password}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </div>
  );
}
