import { type Ref, useId, useState } from 'react';
import { newTokenHowTo } from '../../lib/client/user-text.ts';
import { inputClass, labelClass, secondaryButtonClass } from '../field-styles.ts';
import { hintClass } from './hint.ts';
import { TokenHowToText } from './TokenHowTo.tsx';

interface Props {
  value: string;
  onChange(value: string): void;
  /** The server the token is for, as typed: its hint says where that server's tokens come from. */
  serverUrl: string;
  /** The account signed in there, when there is one: the admin command names it. */
  userId?: string | undefined;
  ref?: Ref<HTMLInputElement>;
}

/** The API token, hidden like a password unless the user asks to see it. */
export function TokenField({ value, onChange, serverUrl, userId, ref }: Props) {
  const [shown, setShown] = useState(false);
  const id = useId();
  const hintId = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className={labelClass}>
        API token
      </label>
      <div className="flex gap-2">
        <input
          ref={ref}
          id={id}
          type={shown ? 'text' : 'password'}
          className={`${inputClass} font-mono`}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder="tok_…"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          required
          aria-describedby={hintId}
        />
        <button type="button" className={`${secondaryButtonClass} shrink-0`} aria-pressed={shown} aria-controls={id} onClick={() => setShown(!shown)}>
          Show token
        </button>
      </div>
      <div id={hintId} className={`${hintClass} space-y-1`}>
        <TokenHowToText howTo={newTokenHowTo(serverUrl, userId)} />
        <p>Shelf keeps it on this computer only.</p>
      </div>
    </div>
  );
}
