import { useEffect, useState } from 'react';
import { ErrorAlertWithSignIn } from '../../components/account/SignInAgain.tsx';
import { CollectionPicker } from '../../components/CollectionPicker.tsx';
import { primaryButtonClass, quietButtonClass } from '../../components/field-styles.ts';
import { send } from '../../components/messenger.ts';
import { TagInput } from '../../components/TagInput.tsx';
import { addTags, tagInputProblem } from '../../components/tag-suggestions.ts';
import { MAX_TAGS_PER_BOOKMARK } from '../../lib/api/bookmarks.ts';
import type { Collection } from '../../lib/api/collections.ts';
import type { Tag } from '../../lib/api/tags.ts';
import { type ClientError, toClientError } from '../../lib/client/errors.ts';
import { NO_WEB_PAGE_IN_WINDOW, describeSaveAll, leftOut, tabCount } from '../../lib/client/save-all-text.ts';
import { type SaveAllProgress, saveAllTabsItem } from '../../lib/storage/save-all-items.ts';
import { Frame } from './Frame.tsx';
import { type WindowPages, followSaveAll, windowPages } from './save-all-window.ts';
import type { Startup } from './startup.ts';
import { useAnswer } from './use-answer.ts';

export interface SaveAllTabsProps {
  /** The tab the popup is for (popup.html?tabId=): its window's tabs are saved; the popup's own window otherwise. */
  tabId: number | undefined;
  startup: Pick<Startup, 'tags' | 'collections'>;
  /** Back to the page's own form. */
  onBack(): void;
}

/**
 * *Save all tabs*: the window's web pages into a chosen (or new) collection with shared tags, then one line
 * that follows the background's progress to the end.
 */
export function SaveAllTabs({ tabId, startup, onBack }: SaveAllTabsProps) {
  const [tabWindow, setTabWindow] = useState<WindowPages | { error: ClientError }>();
  const tagsLoaded = useAnswer(startup.tags);
  const collectionsLoaded = useAnswer(startup.collections);
  const [created, setCreated] = useState<Collection[]>([]);
  const [collectionId, setCollectionId] = useState<string | null>(null);
  const [tags, setTags] = useState<string[]>([]);
  const [tagText, setTagText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [error, setError] = useState<ClientError | null>(null);
  const [progress, setProgress] = useState<SaveAllProgress | null>(null);

  useEffect(() => {
    void windowPages(tabId).then(setTabWindow, (err: unknown) => setTabWindow({ error: toClientError(err) }));
    // A run started earlier (the popup was closed meanwhile) shows where it has come.
    void saveAllTabsItem.get().then((stored) => stored?.running && setProgress((shown) => shown ?? stored));
    return followSaveAll(setProgress);
  }, [tabId]);

  const known: Tag[] | null = tagsLoaded?.ok ? tagsLoaded.value : null;
  const collections = collectionsLoaded?.ok ? [...collectionsLoaded.value, ...created] : null;
  const loadError = (tagsLoaded && !tagsLoaded.ok && tagsLoaded.error) || (collectionsLoaded && !collectionsLoaded.ok && collectionsLoaded.error) || null;
  const pages = tabWindow && 'pages' in tabWindow ? tabWindow : null;
  const running = progress?.running ?? false;

  const save = async () => {
    if (!pages || running) return;
    // The text still in the field counts as a tag, as in the page's own form, and is checked first.
    const typedProblem = tagText.trim() === '' ? null : tagInputProblem(tagText);
    const shared = typedProblem ? tags : addTags(known, tags, [tagText]);
    const found = typedProblem ?? (shared.length > MAX_TAGS_PER_BOOKMARK ? `A bookmark can have at most ${MAX_TAGS_PER_BOOKMARK} tags; these are ${shared.length}.` : null);
    setProblem(found);
    if (found !== null) return;
    setTags(shared);
    setTagText('');
    setError(null);
    setProgress({ total: pages.pages, notWeb: pages.notWeb, saved: 0, skipped: 0, waiting: 0, failed: 0, error: null, running: true });
    try {
      setProgress(await send('saveAllTabs', { windowId: pages.windowId, collectionId, ...(shared.length > 0 && { tags: shared }) }));
    } catch (err) {
      setProgress(null);
      setError(toClientError(err));
    }
  };

  return (
    <Frame heading="Save all tabs">
      {loadError && <ErrorAlertWithSignIn error={loadError} />}
      {tabWindow && 'error' in tabWindow && <ErrorAlertWithSignIn error={tabWindow.error} />}
      {error && <ErrorAlertWithSignIn error={error} />}
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {pages
          ? `${pages.pages === 0 ? NO_WEB_PAGE_IN_WINDOW : `${tabCount(pages.pages)} with a web page in this window.`}${pages.notWeb > 0 ? ` ${leftOut(pages.notWeb)}.` : ''} Pages already in Shelf are left as they are.`
          : 'Counting this window’s tabs…'}
      </p>
      <form
        method="dialog"
        className="space-y-3"
        aria-busy={running}
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <TagInput
          value={tags}
          onChange={(next) => {
            setTags(next);
            setProblem(null);
          }}
          text={tagText}
          onTextChange={setTagText}
          known={known}
          onInvalid={setProblem}
          autoFocus
        />
        {problem && (
          <p role="alert" className="text-xs font-medium text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
        <CollectionPicker
          value={collectionId}
          onChange={setCollectionId}
          collections={collections}
          onCreate={async (input) => {
            const collection = await send('createCollection', input);
            setCreated((list) => [...list, collection]);
            return collection;
          }}
        />
        <div className="flex items-center justify-between gap-2 pt-1">
          <button type="button" onClick={onBack} className={quietButtonClass}>
            Back
          </button>
          <button type="submit" disabled={!pages || pages.pages === 0 || running} className={`min-w-24 ${primaryButtonClass}`}>
            {running ? 'Saving…' : `Save ${tabCount(pages?.pages ?? 0)}`}
          </button>
        </div>
      </form>
      <p
        role="status"
        className={progress ? 'rounded-md bg-emerald-50 px-3 py-1.5 text-sm font-medium text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200' : 'sr-only'}
      >
        {progress && describeSaveAll(progress)}
      </p>
    </Frame>
  );
}
