import { useEffect, useState } from 'react';

/** What `promise` resolves to, once it has (undefined until then); an answer that comes after unmounting is dropped. */
export function useAnswer<T>(promise: Promise<T>): T | undefined {
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
