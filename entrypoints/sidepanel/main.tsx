import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { readOpening } from './opening.ts';
import './style.css';

const root = document.getElementById('root');
if (!root) throw new Error('Shelf side panel: the page has no #root element');
// The background answers from its own caches: a refetch on focus would only spend the rate budget.
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false, staleTime: 60_000 } } });
// The first render shows the place the panel opens on, its rows in it: sidepanel-early.js has mostly read them by now.
void readOpening(queryClient)
  .catch(() => null)
  .then((opening) =>
    createRoot(root).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App opening={opening} />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
