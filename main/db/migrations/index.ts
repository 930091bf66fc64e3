import { foundation } from './001-foundation.js';
import { redactions } from './002-redactions.js';
import { jobs } from './003-jobs.js';
import { documentPages } from './004-document-pages.js';
import { exportRequests } from './005-exports.js';
import { access } from './006-access.js';
import { webhooks } from './007-webhooks.js';
import { watchedFolders } from './008-watched-folders.js';
import { documentFamilies } from './009-document-families.js';
import { webhookResponseBodies } from './010-webhook-response-bodies.js';
import { releases } from './011-releases.js';
import { intake } from './013-intake.js';
import { searchIndex } from './012-search-index.js';
import { templateMinScore } from './014-template-min-score.js';
import { autoProcessing, documentPasswords, searchStaleTriggers } from './016-document-passwords.js';
import { sharedServer } from './017-shared-server.js';
import { intakeIndexes } from './019-intake-indexes.js';
import { rateWindows } from './020-rate-windows.js';
import { releaseControls } from './021-release-controls.js';
import { requestClock } from './022-request-clock.js';

export interface Migration {
  version: number;
  name: string;
  up: string;
}

/** Append only: a released migration is never edited, a new one is added. */
export const migrations = [
  { version: 1, name: 'foundation', up: foundation },
  { version: 2, name: 'redactions', up: redactions },
  { version: 3, name: 'jobs', up: jobs },
  { version: 4, name: 'document-pages', up: documentPages },
  { version: 5, name: 'exports', up: exportRequests },
  { version: 6, name: 'access', up: access },
  { version: 7, name: 'webhooks', up: webhooks },
  { version: 8, name: 'watched-folders', up: watchedFolders },
  { version: 9, name: 'document-families', up: documentFamilies },
  { version: 10, name: 'webhook-response-bodies', up: webhookResponseBodies },
  { version: 11, name: 'releases', up: releases },
  { version: 12, name: 'search-index', up: searchIndex },
  { version: 13, name: 'intake', up: intake },
  { version: 14, name: 'template-min-score', up: templateMinScore },
  { version: 16, name: 'document-passwords', up: documentPasswords + autoProcessing + searchStaleTriggers },
  { version: 17, name: 'shared-server', up: sharedServer },
  { version: 19, name: 'intake-indexes', up: intakeIndexes },
  { version: 20, name: 'rate-windows', up: rateWindows },
  { version: 21, name: 'release-controls', up: releaseControls },
  { version: 22, name: 'request-clock', up: requestClock },
] as const satisfies readonly Migration[];

export type MigrationVersion = (typeof migrations)[number]['version'];

/**
 * Another database's history (migrations-postgres): its SQL for every migration above, under the same version
 * and name. `ups` must have exactly the versions above, so a missing or extra twin does not compile.
 */
export function twinHistory(ups: { readonly [version in MigrationVersion]: string }): readonly Migration[] {
  return migrations.map(({ version, name }) => ({ version, name, up: ups[version] }));
}
