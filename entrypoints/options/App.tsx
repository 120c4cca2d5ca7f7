import { type ComponentType, useEffect, useState } from 'react';
import { AccountForm } from '../../components/account/AccountForm.tsx';
import { AutoCoversSection } from '../../components/options/auto-covers/AutoCoversSection.tsx';
import { focusRing } from '../../components/field-styles.ts';
import { DuplicatesView } from '../../components/library/DuplicatesView.tsx';
import { OpenLibraryLink } from '../../components/library/OpenLibraryLink.tsx';
import { BrokenLinksSection } from '../../components/options/broken-links/BrokenLinksSection.tsx';
import { CollectionsSection } from '../../components/options/collections/CollectionsSection.tsx';
import { TagsSection } from '../../components/options/tags/TagsSection.tsx';
import { SmartFoldersSection } from '../../components/options/smart-folders/SmartFoldersSection.tsx';
import { QuickSaveSection } from '../../components/options/quick-save/QuickSaveSection.tsx';
import { SiteAccessSection } from '../../components/options/site-access/SiteAccessSection.tsx';
import { TransferSection } from '../../components/options/transfer/TransferSection.tsx';
import { QUICK_SAVE_SECTION } from '../../components/quick-save/destination.ts';
import { DUPLICATES_SECTION } from '../../lib/options-sections.ts';
import { TrashSection } from '../../components/options/trash/TrashSection.tsx';

interface Section {
  /** Its address: options.html#id. */
  id: string;
  label: string;
  Content: ComponentType;
}

/** The page's sections, in navigation order: a new one (Collections, Tags, Trash...) is one more entry. */
const SECTIONS = [
  { id: 'account', label: 'Account', Content: AccountForm },
  { id: 'collections', label: 'Collections', Content: CollectionsSection },
  { id: 'tags', label: 'Tags', Content: TagsSection },
  { id: 'smart-folders', label: 'Smart folders', Content: SmartFoldersSection },
  { id: DUPLICATES_SECTION, label: 'Duplicates', Content: DuplicatesView },
  { id: 'trash', label: 'Trash', Content: TrashSection },
  { id: 'broken-links', label: 'Broken links', Content: BrokenLinksSection },
  { id: 'import-export', label: 'Import and export', Content: TransferSection },
  { id: 'covers', label: 'Covers', Content: AutoCoversSection },
  { id: QUICK_SAVE_SECTION, label: 'Quick saves', Content: QuickSaveSection },
  { id: 'site-access', label: 'Site access', Content: SiteAccessSection },
] as const satisfies readonly [Section, ...Section[]];

const sectionAt = (hash: string): Section => SECTIONS.find((section) => `#${section.id}` === hash) ?? SECTIONS[0];

/** Shelf's options page: a navigation of sections and the chosen one. */
export function App() {
  const [current, setCurrent] = useState(() => sectionAt(window.location.hash));

  useEffect(() => {
    const follow = () => setCurrent(sectionAt(window.location.hash));
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);

  const { Content } = current;
  return (
    <div className="min-h-screen bg-zinc-50 text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-4xl items-center justify-between gap-4 px-4 py-4">
          <h1 className="text-lg font-semibold">Shelf options</h1>
          <OpenLibraryLink />
        </div>
      </header>
      <div className="mx-auto flex max-w-4xl flex-col gap-6 px-4 py-6 sm:flex-row">
        <nav aria-label="Options sections" className="shrink-0 sm:w-44">
          <ul className="flex gap-1 sm:flex-col">
            {SECTIONS.map((section) => {
              const active = section.id === current.id;
              return (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    aria-current={active ? 'page' : undefined}
                    className={`block rounded-md px-3 py-2 text-sm ${focusRing} ${
                      active
                        ? 'bg-zinc-200 font-medium dark:bg-zinc-800'
                        : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-900'
                    }`}
                  >
                    {section.label}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <main className="min-w-0 max-w-xl flex-1">
          <section aria-labelledby={`${current.id}-heading`} className="space-y-4">
            <h2 id={`${current.id}-heading`} className="text-xl font-semibold">
              {current.label}
            </h2>
            <Content />
          </section>
        </main>
      </div>
    </div>
  );
}
