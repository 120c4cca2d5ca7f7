import { QUICK_SAVE_SECTION } from '../../components/quick-save/destination.ts';
import type { LazySection } from '../../components/options/SectionContent.tsx';

/**
 * The page's sections, in navigation order: a new one (Collections, Tags, Trash...) is one more entry.
 * Each section's code is a chunk of its own, loaded when the section is opened: the page opened on one
 * section (#duplicates, say) loads and runs that section's code only.
 */
export const SECTIONS = [
  { id: 'account', label: 'Account', load: () => import('../../components/account/AccountForm.tsx').then((m) => m.AccountForm) },
  { id: 'collections', label: 'Collections', load: () => import('../../components/options/collections/CollectionsSection.tsx').then((m) => m.CollectionsSection) },
  { id: 'tags', label: 'Tags', load: () => import('../../components/options/tags/TagsSection.tsx').then((m) => m.TagsSection) },
  { id: 'smart-folders', label: 'Smart folders', load: () => import('../../components/options/smart-folders/SmartFoldersSection.tsx').then((m) => m.SmartFoldersSection) },
  { id: 'duplicates', label: 'Duplicates', load: () => import('../../components/library/DuplicatesView.tsx').then((m) => m.DuplicatesView) },
  { id: 'trash', label: 'Trash', load: () => import('../../components/options/trash/TrashSection.tsx').then((m) => m.TrashSection) },
  { id: 'broken-links', label: 'Broken links', load: () => import('../../components/options/broken-links/BrokenLinksSection.tsx').then((m) => m.BrokenLinksSection) },
  { id: 'import-export', label: 'Import and export', load: () => import('../../components/options/transfer/TransferSection.tsx').then((m) => m.TransferSection) },
  { id: 'covers', label: 'Covers', load: () => import('../../components/options/auto-covers/AutoCoversSection.tsx').then((m) => m.AutoCoversSection) },
  { id: QUICK_SAVE_SECTION, label: 'Quick saves', load: () => import('../../components/options/quick-save/QuickSaveSection.tsx').then((m) => m.QuickSaveSection) },
  { id: 'site-access', label: 'Site access', load: () => import('../../components/options/site-access/SiteAccessSection.tsx').then((m) => m.SiteAccessSection) },
] as const satisfies readonly [LazySection, ...LazySection[]];

/** The section at an address's hash (options.html#id); the first, Account, for any other. */
export const sectionAt = (hash: string): LazySection => SECTIONS.find((section) => `#${section.id}` === hash) ?? SECTIONS[0];
