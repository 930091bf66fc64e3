// The sandboxed preload, run as Electron runs it (CommonJS, only `require('electron')` available), with a
// recording contextBridge: it must expose one frozen, read-only object and nothing callable.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DESKTOP_API_GLOBAL } from '../../main/common/desktop-api.js';
import { PRELOAD_ARG_BASE_URL, PRELOAD_ARG_VERSION, buildWindowOptions } from '../../main/desktop/security.js';
import { PROJECT_ROOT } from '../helpers/process.js';

function runPreload(argv: string[]): { exposed: [string, unknown][]; required: string[] } {
  const source = fs.readFileSync(path.join(PROJECT_ROOT, 'main/desktop/preload.cts'), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } });
  const exposed: [string, unknown][] = [];
  const required: string[] = [];
  const module = { exports: {} };
  const sandbox = {
    module,
    exports: module.exports,
    process: { argv },
    require: (name: string) => {
      required.push(name);
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require ${name}`);
      return { contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.push([key, api]) } };
    },
  };
  vm.runInNewContext(outputText, sandbox, { filename: 'preload.cjs' });
  return { exposed, required };
}

describe('preload', () => {
  it('exposes only the version and the server origin, frozen', () => {
    const options = buildWindowOptions({ preloadPath: 'preload.cjs', baseUrl: 'http://127.0.0.1:43121/', version: '0.4.0' });
    const { exposed, required } = runPreload(['electron', '--type=renderer', ...(options.webPreferences?.additionalArguments ?? [])]);
    expect(required).toEqual(['electron']);
    expect(exposed).toHaveLength(1);
    const [name, api] = exposed[0]!;
    expect(name).toBe(DESKTOP_API_GLOBAL);
    expect(api).toEqual({ isDesktop: true, version: '0.4.0', baseUrl: 'http://127.0.0.1:43121' });
    expect(Object.isFrozen(api)).toBe(true);
    expect(Object.values(api as object).some((value) => typeof value === 'function')).toBe(false);
  });

  it('exposes empty values when started without the arguments (never anything else)', () => {
    const { exposed } = runPreload(['electron', `${PRELOAD_ARG_BASE_URL.slice(0, -1)}`, `${PRELOAD_ARG_VERSION}`]);
    expect(exposed[0]?.[1]).toEqual({ isDesktop: true, version: '', baseUrl: '' });
  });
});
