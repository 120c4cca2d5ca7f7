import { inject } from 'vitest';

/**
 * Setup file of the `server-postgres` project: every test server the file starts keeps its data
 * in a new database of the project's cluster (see startTestServer), so that the same tests check
 * the PostgreSQL store.
 */
process.env.SHELF_TEST_POSTGRES_URL = inject('postgresAdminUrl');
process.env.SHELF_TEST_POSTGRES_TEMPLATE = inject('postgresTemplate');
