import { endpoints } from '../../lib/api/endpoints.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound } from '../http/api-error.ts';
import type { Router } from '../http/router.ts';

const found = <T>(value: T | null, id: string): T => {
  if (value === null) throw notFound('Smart folder', id);
  return value;
};

export function smartFolderRoutes(r: Router, { store, clock }: ServerDeps): void {
  const folders = store.smartFolders;

  r.add(endpoints.listSmartFolders, ({ auth }) => folders.list(auth.userId));

  r.add(endpoints.getSmartFolder, async ({ auth, params }) => found(await folders.get(auth.userId, params.id), params.id));

  r.add(endpoints.createSmartFolder, ({ auth, body }) => folders.create(auth.userId, body, clock.now()));

  r.add(endpoints.updateSmartFolder, async ({ auth, params, body }) =>
    found(await folders.update(auth.userId, params.id, body), params.id),
  );

  r.add(endpoints.deleteSmartFolder, async ({ auth, params }) => {
    if (!(await folders.remove(auth.userId, params.id))) throw notFound('Smart folder', params.id);
    return { success: true };
  });

  r.add(endpoints.evaluateSmartFolder, async ({ auth, params, query }) =>
    found(await folders.evaluate(auth.userId, params.id, query.cursor), params.id),
  );
}
