import { StrictMode, useEffect, useState } from 'react';
import { ErrorAlertWithSignIn } from '../../components/account/SignInAgain.tsx';
import { type EarlyEvent, replayEarlyEvent, takeOverEarlyEvents } from './early-events.ts';
import { Editor } from './Editor.tsx';
import { Frame, NoTab, SignedOut, Unsaveable } from './Frame.tsx';
import { useEscapeCloses } from './keys.ts';
// In the popup's one chunk, not loaded on its click: the popup's size counts every file it loads, and a chunk of
// its own cost 1.7 kB gzipped more than its 4.3 kB of code in this one (Vite's preload helper, and a gzip stream
// of its own that shares nothing with the popup's).
import { SaveAllTabs } from './SaveAllTabs.tsx';
import { type Startup, tabIdFrom } from './startup.ts';
import { useAnswer } from './use-answer.ts';

/**
 * Takes the page over from popup-early.js once React has it, and replays what
 * the user did meanwhile, one event per commit: each finds the page as the one
 * before left it (a second click on Save finds it busy), and the first finds
 * the fields holding what was typed.
 */
function useEarlyEventReplay(): void {
  const [held, setHeld] = useState<EarlyEvent[]>([]);
  useEffect(() => {
    const events = takeOverEarlyEvents(window);
    if (events.length > 0) setHeld(events);
  }, []);
  useEffect(() => {
    const [next, ...rest] = held;
    if (!next) return;
    replayEarlyEvent(next);
    setHeld(rest);
  }, [held]);
}

/** The whole popup, as main.tsx hydrates it and shell.tsx pre-renders it: the two must render the same tree. */
export function PopupRoot({ startup }: { startup: Startup }) {
  return (
    <StrictMode>
      <App startup={startup} />
    </StrictMode>
  );
}

/**
 * The toolbar popup for one tab. The form shows on the first frame, with Save
 * working: the tab's title and URL fill in when the browser answers (a Save
 * clicked before waits for them). Another view replaces it when the tab cannot
 * be saved, or when the account turns out to be signed out.
 */
export function App({ startup }: { startup: Startup }) {
  useEscapeCloses();
  useEarlyEventReplay();
  const page = useAnswer(startup.page);
  const account = useAnswer(startup.account);
  const kept = useAnswer(startup.kept);
  const [savingAll, setSavingAll] = useState(false);
  const saveAllTabs = () => setSavingAll(true);

  if (savingAll) {
    return (
      <SaveAllTabs tabId={tabIdFrom(location.search)} startup={startup} onBack={() => setSavingAll(false)} />
    );
  }
  if (page?.kind === 'no-tab') return <NoTab />;
  if (page?.kind === 'unsaveable') return <Unsaveable url={page.url} onSaveAllTabs={saveAllTabs} />;
  if (account?.ok && !account.value.signedIn) return <SignedOut />;
  if (page && !page.signedInHint && !account?.ok) {
    return <Frame heading="Save to Shelf">{account && <ErrorAlertWithSignIn error={account.error} />}</Frame>;
  }
  return <Editor page={page?.page} kept={kept} startup={startup} onSaveAllTabs={saveAllTabs} />;
}
