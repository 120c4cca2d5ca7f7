import { endpoints } from '../../lib/api/endpoints.ts';
import type { ServerDeps } from '../deps.ts';
import type { Router } from '../http/router.ts';
import { sweepJobs } from '../jobs/cleanup.ts';
import { downloadExport } from '../jobs/download.ts';
import { getJob, reserveImport, startExport, startImport } from '../jobs/start.ts';
import { requestOrigin } from '../storage/urls.ts';

/** Import and export jobs: they run on deps.jobRunner, off the request; GET /jobs/:id follows them. */
export function jobRoutes(r: Router, deps: ServerDeps): void {
  r.add(endpoints.startExport, ({ auth, params }) => startExport(deps, auth.userId, params.format));
  r.add(endpoints.getJob, ({ auth, params }) => getJob(deps, auth.userId, params.id));
  r.add(endpoints.downloadExport, ({ auth, params, c }) => downloadExport(deps, auth.userId, params.id, c));
  r.add(endpoints.reserveImport, ({ auth, c }) => reserveImport(deps, auth.userId, requestOrigin(c, deps.config.proxyHops)));
  r.add(endpoints.startImport, ({ auth, body }) => startImport(deps, auth.userId, body));

  deps.maintenance.add('jobs', (now) => sweepJobs(deps, now));
}
