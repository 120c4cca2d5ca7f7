import { type Ref, useId, useState } from 'react';
import { inputClass, labelClass, secondaryButtonClass } from '../field-styles.ts';
import { hintClass } from './hint.ts';

interface Props {
  value: string;
  onChange(value: string): void;
  ref?: Ref<HTMLInputElement>;
}

/** The API token, hidden like a password unless the user asks to see it. */
export function TokenField({ value, onChange, ref }: Props) {
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
      <p id={hintId} className={hintClass}>
        Create one in your account’s API Tokens settings. Shelf keeps it on this computer only.
      </p>
    </div>
  );
}
