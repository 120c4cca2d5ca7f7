import type { ReactNode } from 'react';
import { browser } from 'wxt/browser';
import { primaryButtonClass, quietButtonClass } from '../../components/field-styles.ts';

/** The popup's page: a heading saying which view this is, then the view. */
export function Frame({ heading, children }: { heading: string; children?: ReactNode }) {
  return (
    <main className="space-y-3 p-3">
      <h1 className="text-base font-semibold text-zinc-900 dark:text-zinc-50">{heading}</h1>
      {children}
    </main>
  );
}

const textClass = 'text-sm text-zinc-700 dark:text-zinc-300';

export function NoTab() {
  return (
    <Frame heading="No page to save">
      <p className={textClass}>Shelf could not find the tab to save. Close this and open Shelf again from the page you want to keep.</p>
    </Frame>
  );
}

/** Opens the *Save all tabs* view: every web page of the window at once. */
export function SaveAllTabsButton({ onClick }: { onClick(): void }) {
  return (
    <button type="button" onClick={onClick} className={`w-full border border-zinc-200 dark:border-zinc-700 ${quietButtonClass}`}>
      Save all tabs
    </button>
  );
}

export function Unsaveable({ url, onSaveAllTabs }: { url: string; onSaveAllTabs(): void }) {
  return (
    <Frame heading="This page can’t be saved">
      <p className={textClass}>Shelf saves web pages, whose address starts with http:// or https://. This one is a browser or local page:</p>
      <p className="truncate rounded bg-zinc-100 px-2 py-1 font-mono text-xs text-zinc-700 dark:bg-zinc-800 dark:text-zinc-300" title={url}>
        {url}
      </p>
      <SaveAllTabsButton onClick={onSaveAllTabs} />
    </Frame>
  );
}

export function SignedOut() {
  return (
    <Frame heading="Sign in to Shelf">
      <p className={textClass}>Shelf needs your API token before it can save pages. Add it in Shelf’s options, then open this again.</p>
      <button type="button" autoFocus onClick={() => void browser.runtime.openOptionsPage()} className={primaryButtonClass}>
        Open Shelf options
      </button>
    </Frame>
  );
}
