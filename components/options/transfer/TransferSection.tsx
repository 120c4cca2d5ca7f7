import { MissingScope, useScopes } from '../scopes.tsx';
import { ExportPanel } from './ExportPanel.tsx';
import { ImportPanel } from './ImportPanel.tsx';

/** The Import and export section: each half offered when the token has its opt-in scope, and explained when not. */
export function TransferSection() {
  const scopes = useScopes();
  if (!scopes.loaded) return null;
  return (
    <div className="space-y-8">
      {scopes.allows('export') ? <ExportPanel /> : <MissingScope scope="export">Exporting the library is not offered.</MissingScope>}
      {scopes.allows('import') ? <ImportPanel /> : <MissingScope scope="import">Importing bookmarks is not offered.</MissingScope>}
    </div>
  );
}
