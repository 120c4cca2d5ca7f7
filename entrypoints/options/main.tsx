import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { readOpening } from './opening.ts';
import './style.css';

const root = document.getElementById('root');
if (!root) throw new Error('Shelf options: the page has no #root element');
// The background answers from its own caches: a refetch on focus would only spend the rate budget.
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false, staleTime: 60_000 } } });
// The first render shows the section's tree: its kept list is in the query cache by then (opening.ts).
void readOpening(queryClient)
  .catch(() => undefined)
  .then(() =>
    createRoot(root).render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
