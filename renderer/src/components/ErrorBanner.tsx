import { plainMessage } from '../api/errors.js';

interface Props {
  error: unknown;
  /** Shown as a button when the failed action can be tried again as it was. */
  onRetry?: (() => void) | undefined;
  onDismiss?: (() => void) | undefined;
}

/** A failed request in plain words, with the way forward. */
export function ErrorBanner({ error, onRetry, onDismiss }: Props) {
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert">
      <span className="banner-text">{plainMessage(error)}</span>
      {onRetry && (
        <button type="button" className="button small" onClick={onRetry}>
          Try again
        </button>
      )}
      {onDismiss && (
        <button type="button" className="button small ghost" onClick={onDismiss} aria-label="Dismiss message">
          ×
        </button>
      )}
    </div>
  );
}
