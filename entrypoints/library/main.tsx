import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { prepareRelativeDates } from '../../components/library/relative-date.ts';
import { App } from './App.tsx';
import { readOpening } from './opening.ts';
import '../../components/pages.css';

const root = document.getElementById('root');
if (!root) throw new Error('Shelf library: the page has no #root element');
const queryClient = libraryQueryClient();

/** The first render shows the opening list's first cards: library-early.js has mostly read them by now. */
async function open(container: HTMLElement): Promise<void> {
  // Without them (a failed read), each list reads its own choices and page as it renders.
  await readOpening(queryClient).catch(() => undefined);
  createRoot(container).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
  // Off the first card's path and before the user's first switch to the list view, which tells ages (relative-date.ts).
  requestIdleCallback(prepareRelativeDates);
}

void open(root);
