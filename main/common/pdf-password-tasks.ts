// Worker task for password-protected PDFs (issue 18): opening one is CPU work (key derivation, then every
// string and stream decrypted), so it runs on the worker pool, never in the HTTP thread.

export interface PdfPasswordTask {
  kind: 'pdf-password';
  /** Absolute path of the stored blob. */
  blobPath: string;
  /** '' probes whether the file opens without one. Never logged or stored. */
  password: string;
  /** true: only whether it opens (no bytes come back). */
  probe: boolean;
}

export type PdfPasswordOutcome =
  | { status: 'not_encrypted' }
  | { status: 'opened'; bytes?: Uint8Array }
  | { status: 'needs_password' }
  | { status: 'wrong_password' }
  | { status: 'unsupported'; reason: string };

export interface PdfPasswordTaskResult {
  kind: 'pdf-password';
  outcome: PdfPasswordOutcome;
}
