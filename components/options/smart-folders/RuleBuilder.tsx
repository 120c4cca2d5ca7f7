import { type FormEvent, useId, useState } from 'react';
import { BookmarkType } from '../../../lib/api/bookmarks.ts';
import type * as z from 'zod/mini';
import type { CreateSmartFolderBody } from '../../../lib/api/smart-folders.ts';
import { inputClass, labelClass, primaryButtonClass, quietButtonClass, secondaryButtonClass } from '../../field-styles.ts';
import {
  type Draft,
  type DraftCondition,
  fields,
  FIELD_LABELS,
  type Field,
  MAX_CONDITIONS,
  OPERATOR_LABELS,
  blankCondition,
  check,
  dayToMs,
  msToDay,
} from './rules.ts';

interface Props {
  /** The folder's rules when editing, or a new folder's start. */
  initial: Draft;
  heading: string;
  submitLabel: string;
  busy: boolean;
  onSubmit(body: z.output<typeof CreateSmartFolderBody>): void;
  onCancel(): void;
}

// Each class list sets a property once (see field-styles.ts): the choices are as wide as their words.
const smallSelect = inputClass.replace('w-full', 'w-auto');

/** The value box a field asks for: a choice for the fixed sets, a date, a count, or text. */
function ValueInput({ condition, label, invalid, describedBy, onChange }: { condition: DraftCondition; label: string; invalid: boolean; describedBy: string | undefined; onChange(value: string): void }) {
  const common = { 'aria-label': label, 'aria-invalid': invalid, 'aria-describedby': describedBy, className: inputClass };
  switch (condition.field) {
    case 'type':
      return (
        <select {...common} value={condition.value} onChange={(e) => onChange(e.target.value)}>
          {BookmarkType.options.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      );
    case 'isFavorite':
      return (
        <select {...common} value={condition.value} onChange={(e) => onChange(e.target.value)}>
          <option value="true">yes</option>
          <option value="false">no</option>
        </select>
      );
    case 'createdAfter':
    case 'createdBefore':
      return <input {...common} type="date" value={msToDay(condition.value)} onChange={(e) => onChange(dayToMs(e.target.value))} />;
    case 'clickCount':
      return <input {...common} type="number" min={0} inputMode="numeric" value={condition.value} onChange={(e) => onChange(e.target.value)} />;
    default:
      return <input {...common} type="text" value={condition.value} onChange={(e) => onChange(e.target.value)} placeholder={condition.field === 'domain' ? 'example.com' : 'tag name'} />;
  }
}

/**
 * The smart folder form: a name, match all/any and up to ten conditions, each
 * field with only its operators. It is checked with the schema the server
 * uses, so what it accepts the server accepts, and each problem is shown on
 * the condition it belongs to.
 */
export function RuleBuilder({ initial, heading, submitLabel, busy, onSubmit, onCancel }: Props) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(initial);
  const [shown, setShown] = useState(false);
  const checked = check(draft);
  const errors = shown && !checked.ok ? checked : null;

  const setCondition = (index: number, next: DraftCondition) =>
    setDraft((d) => ({ ...d, conditions: d.conditions.map((c, i) => (i === index ? next : c)) }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(true);
    if (checked.ok) onSubmit(checked.body);
  };

  const full = draft.conditions.length >= MAX_CONDITIONS;
  return (
    <form onSubmit={submit} noValidate aria-labelledby={`${id}-heading`} className="space-y-3 rounded-md border border-zinc-200 bg-white p-3 dark:border-zinc-800 dark:bg-zinc-900">
      <h3 id={`${id}-heading`} className="text-base font-semibold">
        {heading}
      </h3>
      <label className="block space-y-1">
        <span className={labelClass}>Name</span>
        <input
          className={inputClass}
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.target.value })}
          aria-invalid={errors?.nameError ? true : undefined}
          aria-describedby={errors?.nameError ? `${id}-name-error` : undefined}
        />
      </label>
      {errors?.nameError && (
        <p id={`${id}-name-error`} className="text-sm text-red-700 dark:text-red-400">
          {errors.nameError}
        </p>
      )}
      <fieldset className="space-y-1">
        <legend className={labelClass}>Bookmarks match when</legend>
        <div className="flex flex-wrap gap-4 text-sm">
          {(['all', 'any'] as const).map((match) => (
            <label key={match} className="flex items-center gap-1.5">
              <input type="radio" name={`${id}-match`} checked={draft.match === match} onChange={() => setDraft({ ...draft, match })} />
              {match === 'all' ? 'all conditions hold' : 'any condition holds'}
            </label>
          ))}
        </div>
      </fieldset>
      <ol aria-label="Conditions" className="space-y-3">
        {draft.conditions.map((condition, index) => {
          const n = index + 1;
          const error = errors?.conditionErrors.get(index);
          const errorId = error ? `${id}-c${index}-error` : undefined;
          const operators = fields().find((f) => f.field === condition.field)?.operators ?? [];
          return (
            <li key={index} className="space-y-1">
              <div role="group" aria-label={`Condition ${n}`} className="flex flex-wrap items-center gap-2">
                <select
                  aria-label={`Condition ${n} field`}
                  className={smallSelect}
                  value={condition.field}
                  onChange={(e) => setCondition(index, blankCondition(e.target.value as Field))}
                >
                  {fields().map(({ field }) => (
                    <option key={field} value={field}>
                      {FIELD_LABELS[field]}
                    </option>
                  ))}
                </select>
                {operators.length > 1 ? (
                  <select aria-label={`Condition ${n} operator`} className={smallSelect} value={condition.operator} onChange={(e) => setCondition(index, { ...condition, operator: e.target.value })}>
                    {operators.map((op) => (
                      <option key={op} value={op}>
                        {OPERATOR_LABELS[op] ?? op}
                      </option>
                    ))}
                  </select>
                ) : (
                  // "Saved after" and "Saved before" read whole with the date; the others' one operator is "is".
                  !condition.field.startsWith('created') && <span className="text-sm">is</span>
                )}
                {/* The value takes the row's free width, or a line of its own when too little is left. */}
                <div className="min-w-40 flex-1">
                  <ValueInput condition={condition} label={`Condition ${n} value`} invalid={error !== undefined} describedBy={errorId} onChange={(value) => setCondition(index, { ...condition, value })} />
                </div>
                <button
                  type="button"
                  className={quietButtonClass}
                  aria-label={`Remove condition ${n}`}
                  onClick={() => setDraft((d) => ({ ...d, conditions: d.conditions.filter((_, i) => i !== index) }))}
                >
                  Remove
                </button>
              </div>
              {error && (
                <p id={errorId} className="text-sm text-red-700 dark:text-red-400">
                  Condition {n}: {error}
                </p>
              )}
            </li>
          );
        })}
      </ol>
      {errors?.rulesError && <p className="text-sm text-red-700 dark:text-red-400">{errors.rulesError}</p>}
      <div className="flex flex-wrap items-center gap-2">
        <button type="button" className={secondaryButtonClass} disabled={full} onClick={() => setDraft((d) => ({ ...d, conditions: [...d.conditions, blankCondition('tag')] }))}>
          Add condition
        </button>
        {full && <span className="text-sm">A smart folder holds at most {MAX_CONDITIONS} conditions.</span>}
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" className={secondaryButtonClass} onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className={primaryButtonClass} disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
