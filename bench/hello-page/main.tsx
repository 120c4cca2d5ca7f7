import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './style.css';

/** The bench's baseline: the least a React + Tailwind page can do, built and loaded like the popup. */
function Hello() {
  return (
    <main className="w-80 p-4 font-sans text-sm text-gray-900 dark:bg-gray-900 dark:text-gray-100">
      <h1 className="mb-2 text-base font-semibold">Hello, world</h1>
      <button type="button" className="rounded bg-blue-600 px-3 py-1.5 text-white focus-visible:outline-2">
        Save
      </button>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Hello />
  </StrictMode>,
);
