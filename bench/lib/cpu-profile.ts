import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Summaries of a V8 .cpuprofile (written by --cpu-prof): where a server spent its busy time. */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  hitCount?: number;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface HotSpot {
  name: string;
  /** Share of busy (non-idle) samples, 0..100. */
  percent: number;
  ms: number;
}

export interface ProfileSummary {
  file: string;
  busyMs: number;
  idleMs: number;
  /** Self time by function. */
  selfByFunction: HotSpot[];
  /** Self time grouped by package or project file. */
  selfByArea: HotSpot[];
  /** Inclusive time of project (main/) and key library functions: what each layer costs including callees. */
  inclusive: HotSpot[];
}

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function shortUrl(url: string): string {
  if (!url) return '';
  let file = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (file.startsWith(projectRoot)) file = path.relative(projectRoot, file);
  return file;
}

function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native / V8)';
  const file = shortUrl(url);
  if (file.startsWith('node:')) return file;
  const nodeModules = file.lastIndexOf('node_modules/');
  if (nodeModules >= 0) {
    const rest = file.slice(nodeModules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? file);
  }
  return file;
}

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = shortUrl(url);
  return file ? `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}` : functionName || '(anonymous)';
}

function top(map: Map<string, number>, busySamples: number, msPerSample: number, count: number): HotSpot[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, samples]) => ({ name, percent: (100 * samples) / busySamples, ms: samples * msPerSample }));
}

export function summariseProfile(file: string, count = 25): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const samplesPerNode = new Map<number, number>();
  for (const id of profile.samples ?? []) samplesPerNode.set(id, (samplesPerNode.get(id) ?? 0) + 1);
  const totalSamples = profile.samples?.length ?? 0;
  const msPerSample = totalSamples ? (profile.endTime - profile.startTime) / 1000 / totalSamples : 0;

  const idleLike = new Set(['(idle)']);
  let idleSamples = 0;
  const self = new Map<string, number>();
  const area = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (const [id, samples] of samplesPerNode) {
    const node = byId.get(id);
    if (!node) continue;
    if (idleLike.has(node.callFrame.functionName)) {
      idleSamples += samples;
      continue;
    }
    self.set(label(node), (self.get(label(node)) ?? 0) + samples);
    const areaName = areaOf(node.callFrame.url, node.callFrame.functionName);
    area.set(areaName, (area.get(areaName) ?? 0) + samples);
    // Inclusive: credit every distinct frame on the stack once (recursion counted once).
    const seen = new Set<string>();
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const frame = byId.get(cursor);
      if (!frame || frame.callFrame.functionName === '(root)') continue;
      const name = label(frame);
      const url = frame.callFrame.url;
      const interesting = url.includes('/main/') || /node_modules\/(kysely|better-sqlite3|fastify|fastify-type-provider-zod|zod|@fastify|avvio|find-my-way|light-my-request|fast-json-stringify)\//.test(url);
      if (!interesting || seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + samples);
    }
  }
  const busySamples = Math.max(1, totalSamples - idleSamples);
  return {
    file,
    busyMs: busySamples * msPerSample,
    idleMs: idleSamples * msPerSample,
    selfByFunction: top(self, busySamples, msPerSample, count),
    selfByArea: top(area, busySamples, msPerSample, count),
    inclusive: top(inclusive, busySamples, msPerSample, count),
  };
}

export function formatProfile(summary: ProfileSummary, title: string): string {
  const lines = [`${title}: ${path.relative(process.cwd(), summary.file)}`];
  lines.push(`  busy ${summary.busyMs.toFixed(0)} ms, idle ${summary.idleMs.toFixed(0)} ms (shares below are of busy time)`);
  const section = (heading: string, spots: HotSpot[]) => {
    lines.push(`  ${heading}`);
    for (const spot of spots) lines.push(`    ${spot.percent.toFixed(1).padStart(5)}%  ${spot.name}`);
  };
  section('self time by package / file:', summary.selfByArea.slice(0, 15));
  section('self time by function:', summary.selfByFunction.slice(0, 20));
  section('inclusive time (project and server libraries):', summary.inclusive.slice(0, 30));
  return lines.join('\n');
}
