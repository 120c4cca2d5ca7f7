/**
 * The match patterns that give an extension access to an origin: the origin itself, or its host on any port.
 * Firefox's permissions.contains does not count a granted `http://127.0.0.1/*` (any port, as the manifest
 * names the local server) as covering `http://127.0.0.1:8787/*`, though its requests there are allowed; so
 * access is granted when either pattern is.
 */
export function hostPatterns(origin: string): { exact: string; anyPort: string } {
  const url = new URL(origin);
  return { exact: `${url.origin}/*`, anyPort: `${url.protocol}//${url.hostname}/*` };
}

/** Whether the extension may read `origin` (either pattern granted). */
export async function hasSiteAccess(permissions: { contains(p: { origins: string[] }): Promise<boolean> }, origin: string): Promise<boolean> {
  const { exact, anyPort } = hostPatterns(origin);
  return (await permissions.contains({ origins: [exact] })) || permissions.contains({ origins: [anyPort] });
}
