import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { App } from './App.tsx';
import { readOpening } from './opening.ts';
import '../../components/pages.css';

const root = document.getElementById('root');
if (!root) throw new Error('Shelf options: the page has no #root element');
const queryClient = libraryQueryClient();
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
