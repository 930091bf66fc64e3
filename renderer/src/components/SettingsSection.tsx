import type { ReactNode } from 'react';
import { ErrorBanner } from './ErrorBanner.js';

interface Props {
  /** The heading's id, which names the section. */
  titleId: string;
  title: string;
  /** Buttons at the end of the header row. */
  actions?: ReactNode;
  /** Loading failed: shown with a "Try again" that calls `onRetry`. */
  loadError?: unknown;
  onRetry?: () => void;
  /** A change failed: shown until dismissed. */
  action?: { error: unknown; clearError: () => void };
  children: ReactNode;
}

/** One settings page section: its header with actions, the load and action errors, then its content. */
export function SettingsSection({ titleId, title, actions, loadError, onRetry, action, children }: Props) {
  return (
    <section className="settings-section" aria-labelledby={titleId}>
      <div className="section-header">
        <h2 id={titleId}>{title}</h2>
        {actions && (
          <>
            <div className="spacer" />
            {actions}
          </>
        )}
      </div>
      <ErrorBanner error={loadError} onRetry={onRetry} />
      {action && <ErrorBanner error={action.error} onDismiss={action.clearError} />}
      {children}
    </section>
  );
}
