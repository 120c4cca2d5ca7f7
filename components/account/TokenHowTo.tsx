import type { TokenHowTo } from '../../lib/client/user-text.ts';

/** Where a new token comes from, with the admin command (for a local server) set apart so it can be copied whole. */
export function TokenHowToText({ howTo, id }: { howTo: TokenHowTo; id?: string }) {
  return (
    <span id={id} className="block space-y-1">
      <span className="block">{howTo.text}</span>
      {howTo.command && <code className="block select-all break-all rounded bg-zinc-100 px-2 py-1 font-mono text-xs dark:bg-zinc-800">{howTo.command}</code>}
    </span>
  );
}
