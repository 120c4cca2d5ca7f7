import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Real files written by other tools live beside the project, never in it (their licences
 * do not allow copies): `<repo>/../shared/fixtures/`, or wherever SHELF_SHARED_FIXTURES
 * says. Tests that need them are skipped, saying so, in a clone that has no such folder.
 */
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = process.env.SHELF_SHARED_FIXTURES ?? resolve(REPO_ROOT, '..', 'shared', 'fixtures');

export const SHARED_IMPORTS_DIR = join(FIXTURES, 'imports');
export const haveSharedImports = existsSync(SHARED_IMPORTS_DIR);

/** A describe title that says where the files are read from, or why its tests are skipped. */
export const sharedImportsTitle = (what: string): string =>
  haveSharedImports
    ? `${what} (real export files in ${SHARED_IMPORTS_DIR})`
    : `${what}: SKIPPED, no ${SHARED_IMPORTS_DIR}; set SHELF_SHARED_FIXTURES to the folder that holds imports/`;

export const sharedImport = (name: string): Buffer => readFileSync(join(SHARED_IMPORTS_DIR, name));
