import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../components/ErrorAlert.tsx';
import { Editor } from './Editor.tsx';
import { Frame, NoTab, SignedOut, Unsaveable } from './Frame.tsx';
import { useEscapeCloses } from './keys.ts';
import type { Startup } from './startup.ts';

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
 * The toolbar popup for one tab. The form shows as soon as the tab is known; it
 * waits for the background only when storage has already said no user is stored.
 */
export function App({ startup }: { startup: Startup }) {
  useEscapeCloses();
  const page = useAnswer(startup.page);
  const account = useAnswer(startup.account);
  const kept = useAnswer(startup.kept);

  if (page === undefined) return <Frame heading="Save to Shelf" />;
  if (page.kind === 'no-tab') return <NoTab />;
  if (page.kind === 'unsaveable') return <Unsaveable url={page.url} />;
  if (account?.ok && !account.value.signedIn) return <SignedOut />;
  if (!page.signedInHint && !account?.ok) {
    return <Frame heading="Save to Shelf">{account && <ErrorAlert error={account.error} />}</Frame>;
  }
  return <Editor page={page.page} kept={kept} startup={startup} />;
}
