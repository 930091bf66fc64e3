import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Document } from '../../main/common/schemas/documents.js';
import { createCase, uploadDocuments } from '../helpers/instance.js';
import { dataOf } from '../helpers/integration-support.js';
import { tinyPdf } from '../helpers/search-support.js';
import { createFolder, folderFiles, settled, startWatchHarness, watching, type WatchHarness } from '../helpers/watched-folders.js';

// Watched folders record a dropped file whose content is already a document of its case (uploaded, or
// taken by another folder) as a duplicate of that document, as uploads do; a file dropped twice into one
// folder is still taken once.

let h: WatchHarness;

beforeAll(async () => {
  h = await startWatchHarness();
});

afterAll(async () => {
  await h.close();
});

describe('duplicates in watched folders', () => {
  it('names the uploaded first copy on the document a folder makes, and takes a repeated drop once', async () => {
    const caseId = await createCase(h.instance, 'Folder duplicates');
    const bytes = await tinyPdf('watched-dup');
    const [uploaded] = await uploadDocuments(h.instance, caseId, [{ name: 'uploaded.pdf', bytes }]);
    const dir = path.join(h.root, 'inbox');
    fs.mkdirSync(dir);
    const folder = await createFolder(h.instance, { name: 'Inbox', path: dir, target: { mode: 'case', case_id: caseId } });
    await watching(h.instance, folder.id);
    fs.writeFileSync(path.join(dir, 'dropped.pdf'), bytes);
    await settled(h.instance, folder.id, 1);
    fs.writeFileSync(path.join(dir, 'dropped-again.pdf'), bytes);
    await settled(h.instance, folder.id, 2);
    const files = await folderFiles(h.instance, folder.id);
    expect(files).toHaveLength(2);
    // The second drop points at the first file's document: no new document.
    expect(files[1]?.document_id).toBe(files[0]?.document_id);
    const made = dataOf(await h.instance.request({ method: 'GET', url: `/api/v1/documents/${files[0]?.document_id}` }), Document);
    expect(made.duplicate_of).toBe(uploaded?.id);
    const listed = (await h.instance.request({ method: 'GET', url: `/api/v1/cases/${caseId}/documents` })).json() as { data: unknown[] };
    expect(listed.data).toHaveLength(2);
  }, 60_000);
});
