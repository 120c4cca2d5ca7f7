import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { App } from './App.tsx';
import { readOpening } from './opening.ts';
import './style.css';

const root = document.getElementById('root');
if (!root) throw new Error('Shelf side panel: the page has no #root element');
const queryClient = libraryQueryClient();
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
