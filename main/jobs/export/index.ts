// The export pipeline's front door: the rest of main imports from here only.
//
//   runner.ts        claims exports, reads the case record, commits the file        main thread
//   build.ts         which output a format is; csv and json written directly          main thread
//   pdf.ts, release-zip.ts, internal-zip.ts   the outputs                             main thread, dispatching to the pool
//   requests.ts      box requests and exemption labels (exports and the page preview)  main thread, pure
//   burn.ts, assemble.ts, verify.ts   the steps: `export-burn`, `export-assemble`,
//                    `export-verify` / `export-search` tasks                           pool (worker/burn-in, worker/release-check)
//   release-zip.ts   withholding index and cover letter: `release-package` tasks       pool (worker/release-package)
//   release-plan.ts, summary.ts, zip.ts, context.ts   plans, counts, zip streaming     main thread

export { startExportRunner, ExportRunner, type ExportRunnerOptions } from './runner.js';
export { buildExport } from './build.js';
export { burnBox, requestsOf, settingsOf, type ExemptionCodes, type RequestInput } from './requests.js';
export { releasableType, removeWorkFiles, type BuildContext, type BuiltExport } from './context.js';
