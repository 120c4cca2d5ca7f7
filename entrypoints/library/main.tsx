import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { App } from './App.tsx';
import './style.css';

const root = document.getElementById('root');
if (!root) throw new Error('Shelf library: the page has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={libraryQueryClient()}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);
