import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { bareInputClass, inputBoxClass, labelClass, optionClass, popupListClass } from './field-styles.ts';
import { type KnownTag, addTags, findTag, hasTag, parseTagInput, suggestTags, tagInputProblem, tagPath } from './tag-suggestions.ts';
import { useEarlyValue } from './use-early-value.ts';

type Option = { kind: 'existing' | 'create'; name: string };

export interface TagInputProps {
  value: readonly string[];
  onChange(value: string[]): void;
  /** What is typed but not yet a chip; the owner keeps it, so that saving can include it. */
  text: string;
  onTextChange(text: string): void;
  /** The user's tags, null while they load. */
  known: readonly KnownTag[] | null;
  autoFocus?: boolean;
  /**
   * Given, a name that cannot be a tag stays in the field and is told here (null once the field is fixed);
   * otherwise such a name is dropped.
   */
  onInvalid?(problem: string | null): void;
}

/**
 * Tags as chips with an autocomplete of the user's tags (matching any level of
 * a hierarchical name); a name they do not have yet is offered as a new tag.
 * Enter or a comma adds, Backspace in the empty input removes the last chip.
 */
export function TagInput({ value, onChange, text, onTextChange, known, autoFocus, onInvalid }: TagInputProps) {
  const id = useId();
  useEffect(() => {
    // The browser's own autofocus may not act (Firefox's popups; React does not focus a pre-rendered field it takes over): the field takes the focus if nothing has it.
    if (autoFocus && (document.activeElement === null || document.activeElement === document.body)) document.getElementById(`${id}-input`)?.focus();
  }, [autoFocus, id]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const typed = parseTagInput(text);
  const options: Option[] = open ? suggestTags(known ?? [], text, value).map((t) => ({ kind: 'existing', name: t.name })) : [];
  if (open && typed !== null && !hasTag(value, typed) && !(known && findTag(known, typed))) options.push({ kind: 'create', name: typed });
  const current = active < options.length ? active : -1;
  const optionId = (i: number) => `${id}-option-${i}`;

  const add = (names: readonly string[], rest = '') => {
    const refused = onInvalid && names.find((name) => name.trim() !== '' && parseTagInput(name) === null);
    const next = addTags(known, value, names);
    if (next.length !== value.length) onChange(next);
    onTextChange(refused ? refused.trim() : rest);
    onInvalid?.(refused ? tagInputProblem(refused) : null);
    setActive(-1);
  };

  /** The input's new text: what ends in a comma becomes chips. */
  const onType = (input: string) => {
    const parts = input.split(',');
    const rest = parts.pop() ?? '';
    if (parts.length > 0) add(parts, rest.trimStart());
    else {
      onTextChange(rest);
      onInvalid?.(null);
    }
    setOpen(rest.trim() !== '');
    setActive(-1);
  };

  const inputRef = useEarlyValue((field: HTMLInputElement) => field.value, text, onType);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    switch (e.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        e.preventDefault();
        if (!open) {
          setOpen(true);
          setActive(0);
          return;
        }
        const n = options.length;
        if (n > 0) setActive(e.key === 'ArrowDown' ? (current + 1) % n : current <= 0 ? n - 1 : current - 1);
        return;
      }
      case 'Enter': {
        if (e.ctrlKey || e.metaKey) return; // the save shortcut, which includes the typed text
        const option = options[current];
        if (option) add([option.name]);
        else if (text.trim() !== '') add([text]);
        else return; // nothing to add: Enter submits the form
        e.preventDefault();
        setOpen(false);
        return;
      }
      case 'Backspace':
        if (text === '' && value.length > 0) onChange(value.slice(0, -1));
        return;
      case 'Escape':
        if (options.length === 0) return; // no list to close: Escape is the page's (the popup closes)
        e.preventDefault();
        setOpen(false);
        return;
    }
  };

  const isNew = (name: string) => known !== null && !findTag(known, name);

  return (
    <div>
      <label htmlFor={`${id}-input`} className={labelClass}>
        Tags
      </label>
      <div className={`mt-1 flex flex-wrap items-center gap-1 ${inputBoxClass}`}>
        {value.length > 0 && (
          <ul aria-label="Chosen tags" className="flex max-w-full flex-wrap gap-1">
            {value.map((name) => (
              <li
                key={name}
                className="inline-flex max-w-full items-center gap-1 rounded bg-zinc-100 py-0.5 pr-0.5 pl-1.5 text-xs text-zinc-800 dark:bg-zinc-800 dark:text-zinc-100"
              >
                <span className="truncate">{tagPath(name)}</span>
                {isNew(name) && (
                  <span className="rounded bg-emerald-100 px-1 text-[10px] font-semibold text-emerald-800 uppercase dark:bg-emerald-900 dark:text-emerald-100">
                    new
                  </span>
                )}
                <button
                  type="button"
                  aria-label={`Remove tag ${name}`}
                  onClick={() => onChange(value.filter((n) => n !== name))}
                  className="rounded px-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-zinc-700 dark:hover:text-white"
                >
                  ×
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          id={`${id}-input`}
          role="combobox"
          aria-expanded={options.length > 0}
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={current >= 0 ? optionId(current) : undefined}
          aria-describedby={`${id}-hint`}
          autoComplete="off"
          ref={inputRef}
          autoFocus={autoFocus}
          value={text}
          placeholder={value.length === 0 ? 'Add tags' : ''}
          onChange={(e) => onType(e.target.value)}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
          className={`${bareInputClass} basis-24`}
        />
      </div>
      <p id={`${id}-hint`} className="sr-only">
        Enter or comma adds a tag, Backspace removes the last one.
      </p>
      <ul id={`${id}-list`} role="listbox" aria-label="Tag suggestions" hidden={options.length === 0} className={`mt-1 ${popupListClass}`}>
        {options.map((option, i) => (
          <li
            key={`${option.kind}:${option.name}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === current}
            onMouseDown={(e) => e.preventDefault()} // keep focus in the input
            onClick={() => {
              add([option.name]);
              setOpen(false);
            }}
            className={optionClass(i === current)}
          >
            {option.kind === 'existing' ? tagPath(option.name) : `${known === null ? 'Add' : 'Create'} tag “${tagPath(option.name)}”`}
          </li>
        ))}
      </ul>
    </div>
  );
}
