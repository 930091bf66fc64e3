import type { Executor } from '../db/queries/executor.js';
import { consumeDownloadToken } from '../db/queries/download-tokens.js';
import { findDocument } from '../db/queries/documents.js';
import { DomainError } from '../common/errors.js';
import type { BlobStore } from './blob-store.js';
import { exportDownloadTarget } from './exports.js';
import { sha256Hex } from './secrets.js';

export interface DownloadTarget {
  path: string;
  fileName: string;
  mediaType: string;
  size: number;
}

/** Spends a single-use download token and names the file it unlocks. Unknown, used and expired look alike. */
export async function redeemDownloadToken(db: Executor, blobs: BlobStore, token: string, now: Date): Promise<DownloadTarget> {
  const spent = await consumeDownloadToken(db, sha256Hex(token), now.toISOString());
  if (!spent) throw new DomainError('resource_not_found', 'this download URL is unknown, expired or already used; request a new one');
  if (spent.resource_type === 'document') {
    const document = await findDocument(db, spent.organization_id, spent.resource_id);
    if (!document) throw new DomainError('resource_not_found', 'the document no longer exists');
    return { path: await blobs.localPath(document.sha256), fileName: document.file_name, mediaType: document.media_type, size: document.size };
  }
  if (spent.resource_type === 'export') {
    const file = await exportDownloadTarget(db, spent.organization_id, spent.resource_id);
    if (!file) throw new DomainError('resource_not_found', 'the export no longer has a file');
    return { path: await blobs.localPath(file.sha256), fileName: file.fileName, mediaType: file.mediaType, size: file.size };
  }
  throw new DomainError('resource_not_found', `downloads of ${spent.resource_type} are not available`);
}
