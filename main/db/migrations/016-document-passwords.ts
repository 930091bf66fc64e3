// Password-protected PDFs (issue 18): a document whose file does not open without a password waits in
// 'needs_password'; once one is supplied the document points at a decrypted working copy ('decrypted') and
// original_sha256 keeps the encrypted upload as the source of record. The password itself is never stored.
export const documentPasswords = `
ALTER TABLE documents ADD COLUMN password_state TEXT CHECK (password_state IS NULL OR password_state IN ('needs_password', 'decrypted'));
ALTER TABLE documents ADD COLUMN original_sha256 TEXT REFERENCES blobs(sha256);
`;
