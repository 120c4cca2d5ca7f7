import { chmodSync, existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-modes.ts';

/**
 * Gives the data directory and everything in it (recursively) the modes the server creates them with:
 * a directory or database made by an older version may still be readable by every user of the machine.
 * Symbolic links are neither followed nor changed (their target may be anything, anywhere).
 * Answers how many entries it changed, so that the caller can say so.
 */
export function makeDataDirPrivate(dataDir: string): number {
  if (!existsSync(dataDir)) return 0;
  return makePrivate(dataDir);
}

function makePrivate(path: string): number {
  const stat = lstatSync(path);
  if (stat.isSymbolicLink()) return 0;
  const isDir = stat.isDirectory();
  const wanted = isDir ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
  let changed = 0;
  if ((stat.mode & 0o777) !== wanted) {
    chmodSync(path, wanted);
    changed++;
  }
  if (isDir) for (const name of readdirSync(path)) changed += makePrivate(join(path, name));
  return changed;
}

/** The one line the server writes on stderr when it changed modes at start. */
export function privateModesNotice(dataDir: string, changed: number): string {
  return `shelf server: made ${changed} ${changed === 1 ? 'entry' : 'entries'} of ${dataDir} private to this user (directories 0700, files 0600)`;
}
