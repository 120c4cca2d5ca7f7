import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode, useEffect, useLayoutEffect, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { App } from './App.tsx';
import { type Opening, readOpening } from './opening.ts';
import { keepSnapshot, keptPaintShown, takeOverSnapshot } from './snapshot.ts';
import '../../components/pages.css';

const root = document.getElementById('root');
if (!root) throw new Error('Shelf side panel: the page has no #root element');
const queryClient = libraryQueryClient();

/**
 * At the first commit, which has replaced the kept paint (snapshot.ts): the clicks held there replayed, or,
 * once it is on screen, this paint kept for the next opening.
 */
function FirstCommit({ opening, children }: { opening: Opening | null; children: ReactNode }) {
  const shown = useRef(false);
  useLayoutEffect(() => {
    // ||=: StrictMode (development) runs the effect twice, and the second finds the paint taken over already.
    shown.current ||= takeOverSnapshot(window, root!);
  }, []);
  useEffect(() => {
    if (!shown.current && opening?.keptPage) keepSnapshot(window, root!, opening.keptPage.key, opening.keptPage.version);
  }, [opening]);
  return children;
}

/** The first render shows the place the panel opens on, its rows in it: sidepanel-early.js has mostly read them by now. */
async function open(container: HTMLElement): Promise<void> {
  const opening = await readOpening(queryClient).catch(() => null);
  await keptPaintShown(window);
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <FirstCommit opening={opening}>
          <App opening={opening?.place ?? null} />
        </FirstCommit>
      </QueryClientProvider>
    </StrictMode>,
  );
}

void open(root);
