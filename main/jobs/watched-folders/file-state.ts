import fsp from 'node:fs/promises';
import path from 'node:path';
import type { WatchedFileRow } from '../../db/schema.js';
import { BlobTooLargeError, type StagedBlob } from '../../services/blob-store.js';
import { ACCEPTED_TYPES_TEXT, detectDocumentType } from '../../services/file-types.js';
import { mayDeleteSource } from '../../services/watched-folders.js';
import {
  FileProblem,
  failFile,
  finishFailed,
  finishFile,
  markVanished,
  releaseFile,
  reloadFile,
  setDisposedPath,
  storeFile,
  type Disposal,
} from '../../services/watched-files.js';
import type { Limiter } from './limiter.js';
import { checkSource, deleteSource, failedPath, moveSource, processedPath, writeTextAtomically } from './output.js';
import { StepFailure, runPipeline } from './pipeline.js';
import type { RunnerContext } from './runner-context.js';
import { markIfLocked } from '../../services/pdf-password/index.js';

export interface StateHooks {
  /** The file waits for its size and mtime to settle. */
  track(file: WatchedFileRow): void;
  /** The file reached a final state. */
  settled(file: WatchedFileRow): void;
}

export interface Limits {
  store: Limiter;
  pipeline: Limiter;
}

/** More transitions than any file needs; reaching it means a step returned without moving the file on. */
const MAX_TRANSITIONS = 32;

const takenStat = (file: WatchedFileRow) => ({ size: file.size, mtimeMs: file.mtime_ms });

/**
 * Drives one file from whatever state the database says it is in to a final state. Every transition is
 * committed before the next begins, and every state's work can be repeated after a crash: storing reads
 * the source again (the blob store is content addressed), processing resumes at the first step not done,
 * disposing and failing reuse the path recorded for the source before it was moved.
 */
export class FileStateMachine {
  constructor(
    private readonly context: RunnerContext,
    private readonly limits: Limits,
    private readonly hooks: StateHooks,
  ) {}

  async advance(fileId: number): Promise<void> {
    const { context } = this;
    for (let transition = 0; transition < MAX_TRANSITIONS; transition += 1) {
      if (context.signal.aborted) return;
      const file = await reloadFile(context.runtime.db, fileId);
      try {
        switch (file.state) {
          case 'waiting':
            this.hooks.track(file);
            return;
          case 'storing':
            await this.limits.store.run(() => this.store(file), context.signal);
            break;
          case 'processing':
            await this.limits.pipeline.run(() => runPipeline(context, fileId), context.signal);
            break;
          case 'disposing':
            await this.dispose(file);
            break;
          case 'failing':
            await this.moveToFailed(file);
            break;
          default:
            this.hooks.settled(file);
            return;
        }
      } catch (error) {
        if (context.signal.aborted) return;
        if (!(error instanceof StepFailure || error instanceof FileProblem)) throw error;
        const step = error instanceof StepFailure ? error.step : file.state === 'storing' ? 'store' : file.state;
        await context.transaction((trx, ctx) => failFile(trx, fileId, step, error.message, ctx.clock.now().toISOString()));
      }
    }
    throw new Error(`file ${fileId} made no progress after ${MAX_TRANSITIONS} transitions`);
  }

  /** storing: the bytes go to the blob store, then the document is made (or found) in one transaction. */
  private async store(file: WatchedFileRow): Promise<void> {
    const { context } = this;
    const { runtime, layout } = context;
    const absolute = layout.absolute(file.relative_path);
    const taken = takenStat(file);
    const now = () => runtime.clock.now().toISOString();
    const maxBytes = runtime.config.uploads.maxFileBytes;
    let staged: StagedBlob;
    try {
      const handle = await fsp.open(absolute, 'r');
      const stat = await handle.stat().catch(async (error: unknown) => {
        await handle.close();
        throw error;
      });
      if (!stat.isFile()) {
        await handle.close();
        throw new FileProblem('not a regular file');
      }
      if (stat.size > maxBytes) {
        await handle.close();
        throw new FileProblem(`larger than the upload limit of ${maxBytes} bytes (uploads.maxFileBytes)`);
      }
      staged = await runtime.blobs.stage(handle.createReadStream(), maxBytes);
    } catch (error) {
      if (error instanceof FileProblem) throw error;
      if (error instanceof BlobTooLargeError) throw new FileProblem(`larger than the upload limit of ${maxBytes} bytes (uploads.maxFileBytes)`);
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        await context.transaction((trx) => markVanished(trx, file.id, now()));
        context.log(`${file.relative_path}: removed before it could be read; nothing was made from it`);
        return;
      }
      if (code === undefined) throw error;
      throw new FileProblem(`cannot read the file: ${(error as Error).message}`);
    }
    const after = await fsp.lstat(absolute).catch(() => null);
    const changed = staged.size !== taken.size || (after !== null && (after.size !== taken.size || after.mtimeMs !== taken.mtimeMs));
    if (changed) {
      await runtime.blobs.discard(staged);
      await context.transaction((trx) => releaseFile(trx, file.id, now()));
      context.log(`${file.relative_path}: changed while it was read; waiting for it to settle again`);
      return;
    }
    const detected = await detectDocumentType(staged.tempPath, file.relative_path);
    if (!detected) {
      await runtime.blobs.discard(staged);
      throw new FileProblem(`not ${ACCEPTED_TYPES_TEXT} (judged from its content and name)`);
    }
    await runtime.blobs.commit(staged);
    const content = { sha256: staged.sha256, size: staged.size, mediaType: detected.mediaType, documentType: detected.documentType };
    const outcome = await context.transaction((trx, ctx) => storeFile(trx, ctx, context.folder, context.settings, file, content));
    const hash = `sha256 ${content.sha256.slice(0, 12)}…`;
    if (outcome?.kind === 'duplicate') {
      context.log(`${file.relative_path}: same content (${hash}) as ${outcome.of.relative_path} (file ${outcome.of.id}); no new document, it is document ${outcome.documentId}`);
    } else if (outcome?.kind === 'retry') {
      context.log(`${file.relative_path}: same content (${hash}) as ${outcome.of.relative_path}, which failed; its document ${outcome.documentId} is processed again`);
    } else if (outcome?.kind === 'document') {
      context.log(`${file.relative_path}: stored as document ${outcome.documentId} (${hash})`);
      // Before its first step runs: a PDF that needs a password waits for it (the steps fail saying so).
      if (content.documentType === 'pdf' && (await markIfLocked(runtime, outcome.documentId))) {
        context.log(`${file.relative_path}: password-protected; supply its password on document ${outcome.documentId}`);
      }
    }
  }

  /** disposing: the source is moved to processed/YYYY-MM-DD/, deleted or left, as the folder says. */
  private async dispose(file: WatchedFileRow): Promise<void> {
    const { context } = this;
    const { layout } = context;
    const source = layout.absolute(file.relative_path);
    const taken = takenStat(file);
    let disposal: Disposal = { sourceKept: false, disposedPath: null };
    if (file.disposition === 'leave') {
      disposal.sourceKept = (await checkSource(source, taken)) === 'ours';
    } else if (file.disposition === 'delete') {
      if (mayDeleteSource(source, layout.root, context.folder.origin, context.runtime.config.watchedFolderOptions)) await deleteSource(source, taken);
      else {
        context.log(`${file.relative_path}: not deleted: its real path leads outside the folder or the allowed roots; it stays where it is`);
        disposal.sourceKept = (await checkSource(source, taken)) === 'ours';
      }
    } else {
      disposal = await this.moveRecorded(file, () => processedPath(layout.root, file.relative_path, context.runtime.clock.now()));
    }
    await context.transaction((trx, ctx) => finishFile(trx, ctx, file.id, disposal));
    const where = disposal.disposedPath ? `, moved to ${path.relative(layout.root, disposal.disposedPath)}` : '';
    context.log(`${file.relative_path}: done (document ${file.document_id ?? '-'}${file.output_path ? `, release file ${file.output_path}` : ''}${where})`);
  }

  /** Moves the source to a path chosen once and recorded before the move; a repeat finds it moved. */
  private async moveRecorded(file: WatchedFileRow, choose: () => Promise<string>): Promise<Disposal> {
    const { context } = this;
    const source = context.layout.absolute(file.relative_path);
    let target = file.disposed_path;
    if (target === null) {
      const chosen = await choose();
      await context.transaction((trx, ctx) => setDisposedPath(trx, file.id, chosen, ctx.clock.now().toISOString()));
      target = chosen;
    }
    try {
      const moved = await moveSource(source, target, takenStat(file));
      return { sourceKept: false, disposedPath: moved === 'moved' ? target : null };
    } catch (error) {
      context.log(`${file.relative_path}: cannot be moved to ${target}: ${(error as Error).message}; it stays where it is`);
      return { sourceKept: (await checkSource(source, takenStat(file))) === 'ours', disposedPath: null };
    }
  }

  /** failing: the source goes to failed/ with `<name>.error.txt` beside it. */
  private async moveToFailed(file: WatchedFileRow): Promise<void> {
    const { context } = this;
    const { layout } = context;
    const disposal = await this.moveRecorded(file, () => failedPath(layout.root, file.relative_path));
    const notePath = `${disposal.disposedPath ?? (await failedPath(layout.root, file.relative_path))}.error.txt`;
    try {
      await writeTextAtomically(notePath, errorNote(file, context.folder.name, context.runtime.clock.now()), `obscura-${file.id}`);
    } catch (error) {
      context.log(`${file.relative_path}: cannot write ${notePath}: ${(error as Error).message}`);
    }
    await context.transaction((trx, ctx) => finishFailed(trx, ctx, file.id, disposal));
    context.log(`${file.relative_path}: failed at ${file.error_step ?? '?'}: ${file.error_message ?? ''}`);
  }
}

function errorNote(file: WatchedFileRow, folderName: string, now: Date): string {
  return [
    'Obscura could not process this file.',
    '',
    `File:     ${file.relative_path}`,
    `Step:     ${file.error_step ?? 'unknown'}`,
    `Error:    ${file.error_message ?? 'unknown'}`,
    `Time:     ${now.toISOString()}`,
    `Folder:   ${folderName} (watched folder ${file.folder_id}, file ${file.id})`,
    ...(file.document_id !== null ? [`Document: ${file.document_id} (it stays in case ${file.case_id ?? '?'})`] : []),
    '',
    'Fix the cause and drop the file into the folder again.',
    '',
  ].join('\n');
}
