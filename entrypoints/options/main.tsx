import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { loadSection } from '../../components/options/SectionContent.tsx';
import { App } from './App.tsx';
import { readOpening } from './opening.ts';
import { sectionAt } from './sections.ts';
import '../../components/pages.css';

const root = document.getElementById('root');
if (!root) throw new Error('Shelf options: the page has no #root element');
// The section's chunk comes while its kept list is read, not after the first render asks for it.
loadSection(sectionAt(window.location.hash));
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
