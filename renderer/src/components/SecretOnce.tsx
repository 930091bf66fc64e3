import { useState } from 'react';

interface Props {
  label: string;
  /** Null when the server answered a repeated request: it never stores secrets, so it cannot show it again. */
  secret: string | null;
  onDone: () => void;
}

/** A secret the server shows only once: displayed with a copy button until the user confirms. */
export function SecretOnce({ label, secret, onDone }: Props) {
  const [copied, setCopied] = useState(false);
  if (secret === null) {
    return (
      <div className="banner banner-warning" role="status">
        <span className="banner-text">
          <strong>{label}</strong> was created, but its secret was already shown once and cannot be shown again. Rotate it to get a new one.
        </span>
        <button type="button" className="button small" onClick={onDone}>
          Done
        </button>
      </div>
    );
  }
  return (
    <div className="banner banner-warning" role="status">
      <div className="banner-text">
        <strong>{label}</strong> — copy it now; it will not be shown again.
        <div className="secret-box" data-testid="secret">
          {secret}
        </div>
      </div>
      <button
        type="button"
        className="button small"
        onClick={() => {
          navigator.clipboard.writeText(secret).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
      <button type="button" className="button small" onClick={onDone}>
        Done
      </button>
    </div>
  );
}
