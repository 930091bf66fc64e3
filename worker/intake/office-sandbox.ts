import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

// LibreOffice opens documents anyone may have written, so it runs as little as possible: a fresh profile in the
// conversion's own 0700 folder (never a guessable path in the shared /tmp), macros and link updates off, no
// network and only system folders plus its work folder visible (bubblewrap; `unshare -rn` for the network
// alone when bubblewrap is missing), an environment with nothing of Obscura's, and an address-space limit.

/** Address space of LibreOffice and its children (ulimit -v): a file that needs more fails its own conversion. */
export const LIBREOFFICE_MEMORY_MB = 4096;

// Macros never run (level 3 = very high, and execution disabled); linked files, pictures and data sources are
// not updated or fetched; spreadsheet formulas are not recalculated on load (WEBSERVICE, external references).
const REGISTRY = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="CheckDocumentEvents" oor:op="fuse"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse"><value>1</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Misc"><prop oor:name="UseLocking" oor:op="fuse"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Java/VirtualMachine"><prop oor:name="Enable" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

/** A new profile folder inside `parent` (the conversion's work folder under the data directory), settings written. */
export async function freshProfile(parent: string): Promise<string> {
  const profile = await fsp.mkdtemp(path.join(parent, 'lo-profile-'));
  await fsp.chmod(profile, 0o700);
  await fsp.mkdir(path.join(profile, 'user'), { mode: 0o700 });
  await fsp.writeFile(path.join(profile, 'user', 'registrymodifications.xcu'), REGISTRY, { mode: 0o600 });
  return profile;
}

export type SandboxKind = 'bubblewrap' | 'unshare' | 'none';

let probed: { kind: SandboxKind; tool: string | null } | undefined;

function works(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000, env: { PATH: '/usr/bin:/bin' } });
  return result.status === 0;
}

function onPath(name: string): string | null {
  for (const dir of ['/usr/bin', '/bin', '/usr/local/bin']) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  return null;
}

/** Which isolation this machine allows (probed once per thread; OBSCURA_LIBREOFFICE_SANDBOX=none|unshare forces a weaker one). */
export function sandboxKind(): { kind: SandboxKind; tool: string | null } {
  if (probed) return probed;
  const forced = process.env.OBSCURA_LIBREOFFICE_SANDBOX;
  const bwrap = forced === 'none' || forced === 'unshare' ? null : onPath('bwrap');
  const unshare = forced === 'none' ? null : onPath('unshare');
  if (bwrap && works(bwrap, ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'])) probed = { kind: 'bubblewrap', tool: bwrap };
  else if (unshare && works(unshare, ['-rn', 'true'])) probed = { kind: 'unshare', tool: unshare };
  else probed = { kind: 'none', tool: null };
  return probed;
}

/** Only what LibreOffice needs: no database URL, no S3 credentials, no proxy settings, nothing of the clerk's. */
export function scrubbedEnvironment(home: string): NodeJS.ProcessEnv {
  return { PATH: '/usr/bin:/bin', HOME: home, TMPDIR: home, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', SAL_USE_VCLPLUGIN: 'svp' };
}

/**
 * The command line that runs `soffice args` confined: bubblewrap with new namespaces for everything (no
 * network), system folders read-only, only `workDir` writable, killed with the worker thread that started it
 * (--die-with-parent; its pid namespace ends every child with it); else unshare for the network; else plain.
 */
export function confinedCommand(soffice: string, args: string[], workDir: string): { command: string; args: string[]; sandbox: SandboxKind } {
  const limited = ['-c', `ulimit -v ${LIBREOFFICE_MEMORY_MB * 1024} && exec "$0" "$@"`, soffice, ...args];
  const { kind, tool } = sandboxKind();
  if (kind === 'bubblewrap' && tool) {
    // LibreOffice's own folder too when it lives elsewhere (OBSCURA_SOFFICE=/opt/…/program/soffice): read-only.
    const install = path.dirname(path.dirname(fs.realpathSync(soffice)));
    const system = ['/usr', '/etc', '/opt', '/var/cache/fontconfig', install].flatMap((dir) => ['--ro-bind-try', dir, dir]);
    const links = ['bin', 'sbin', 'lib', 'lib64', 'lib32'].flatMap((name) => (isLink(`/${name}`) ? ['--symlink', fs.readlinkSync(`/${name}`), `/${name}`] : ['--ro-bind-try', `/${name}`, `/${name}`]));
    const bwrapArgs = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--tmpfs', '/tmp', ...system, ...links, '--proc', '/proc', '--dev', '/dev', '--bind', workDir, workDir, '--chdir', workDir, '--', '/bin/sh', ...limited];
    return { command: tool, args: bwrapArgs, sandbox: kind };
  }
  if (kind === 'unshare' && tool) return { command: tool, args: ['-rn', '--fork', '--kill-child', '--', '/bin/sh', ...limited], sandbox: kind };
  return { command: '/bin/sh', args: limited, sandbox: kind };
}

function isLink(file: string): boolean {
  try {
    return fs.lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}
