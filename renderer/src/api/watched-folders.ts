import { listAll } from './http.js';
import type { WatchedFolder } from '../../../main/common/schemas/watched-folders.js';

export type { WatchedFolder };

export const listWatchedFolders = (signal?: AbortSignal) => listAll<WatchedFolder>('/api/v1/watched-folders', {}, signal);
