import { StrictMode, Suspense, lazy, useEffect, useState } from 'react';
import { ErrorAlertWithSignIn } from '../../components/account/SignInAgain.tsx';
import { type EarlyEvent, replayEarlyEvent, takeOverEarlyEvents } from './early-events.ts';
import { Editor } from './Editor.tsx';
import { Frame, NoTab, SignedOut, Unsaveable } from './Frame.tsx';
import { useEscapeCloses } from './keys.ts';
import { type Startup, tabIdFrom } from './startup.ts';

// Its own chunk, loaded when its button is pressed: the popup's start-up path carries none of it.
const SaveAllTabs = lazy(() => import('./SaveAllTabs.tsx'));

function useAnswer<T>(promise: Promise<T>): T | undefined {
  const [answer, setAnswer] = useState<{ value: T }>();
  useEffect(() => {
    let live = true;
    void promise.then((value) => live && setAnswer({ value }));
    return () => {
      live = false;
    };
  }, [promise]);
  return answer?.value;
}

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
      <Suspense fallback={<Frame heading="Save all tabs" />}>
        <SaveAllTabs tabId={tabIdFrom(location.search)} startup={startup} onBack={() => setSavingAll(false)} />
      </Suspense>
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
