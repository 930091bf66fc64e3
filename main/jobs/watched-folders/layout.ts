import path from 'node:path';
import { FAILED_DIR, PROCESSED_DIR, isSameOrInside } from '../../services/watched-folders.js';

/** Names that are still being written by someone (browser downloads, Office lock files, copy tools). */
const TEMPORARY_SUFFIXES = ['.part', '.partial', '.crdownload', '.download', '.tmp', '.temp', '~'];

export function isTemporaryName(name: string): boolean {
  const lower = name.toLowerCase();
  return name.startsWith('.') || name.startsWith('~$') || TEMPORARY_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/**
 * Glob-ish pattern → RegExp, case-insensitive (scanners write .PDF as often as .pdf): `*` any run of
 * characters but `/`, `**` any run including `/` (`**` followed by `/` also matches nothing), `?` one character
 * but `/`, `[abc]` / `[!abc]` a class.
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let index = 0; index < glob.length; index += 1) {
    const char = glob[index] ?? '';
    if (char === '*') {
      if (glob[index + 1] === '*') {
        const slash = glob[index + 2] === '/';
        source += slash ? '(?:.*/)?' : '.*';
        index += slash ? 2 : 1;
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '[') {
      const close = glob.indexOf(']', index + 2);
      if (close === -1) {
        source += '\\[';
        continue;
      }
      let body = glob.slice(index + 1, close);
      const negated = body.startsWith('!');
      if (negated) body = body.slice(1);
      source += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      index = close;
    } else {
      source += char.replace(/[.+^${}()|\\/]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`, 'i');
}

/** Which paths of a watched folder are taken, and which are never looked at. Paths are relative, with `/`. */
export class FolderLayout {
  private readonly matchers: { regex: RegExp; wholePath: boolean }[];
  /** The output folder, relative to the root, when it lies inside the watched folder. */
  private readonly outputInside: string | null;
  private readonly rootPrefix: string;

  constructor(
    readonly root: string,
    patterns: readonly string[],
    outputPath: string | null,
  ) {
    this.rootPrefix = root.endsWith(path.sep) ? root : root + path.sep;
    this.matchers = patterns.map((pattern) => ({ regex: globToRegExp(pattern), wholePath: pattern.includes('/') }));
    this.outputInside = outputPath && isSameOrInside(outputPath, root) ? toRelative(root, outputPath) : null;
  }

  /** processed/, failed/, the output folder, dotfiles and partial downloads: never watched nor taken. */
  ignores(relative: string): boolean {
    if (relative === '') return false;
    const segments = relative.split('/');
    const top = segments[0] ?? '';
    if (segments.length >= 1 && (top === PROCESSED_DIR || top === FAILED_DIR)) return true;
    if (this.outputInside !== null && (this.outputInside === '' || isSameOrInside(relative, this.outputInside))) return true;
    return segments.some(isTemporaryName);
  }

  matches(relative: string): boolean {
    const name = relative.slice(relative.lastIndexOf('/') + 1);
    return this.matchers.some((matcher) => matcher.regex.test(matcher.wholePath ? relative : name));
  }

  /** A file this folder takes. */
  accepts(relative: string): boolean {
    return !this.ignores(relative) && this.matches(relative);
  }

  absolute(relative: string): string {
    return path.join(this.root, ...relative.split('/'));
  }

  /** Relative path of a path under the root (as chokidar reports them), or null; cheap: called per entry. */
  relative(absolute: string): string | null {
    if (absolute === this.root) return '';
    if (absolute.startsWith(this.rootPrefix)) {
      const rest = absolute.slice(this.rootPrefix.length);
      return path.sep === '/' ? rest : rest.split(path.sep).join('/');
    }
    const relative = toRelative(this.root, absolute);
    return relative.startsWith('../') || relative === '..' || path.isAbsolute(relative) ? null : relative;
  }
}

function toRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}
