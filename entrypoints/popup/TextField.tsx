import { useId } from 'react';
import { inputClass, labelClass, readOnlyInputClass } from '../../components/field-styles.ts';
import { useEarlyValue } from '../../components/use-early-value.ts';

interface TextFieldProps {
  label: string;
  value: string;
  onChange?: (value: string) => void;
  maxLength?: number;
  readOnly?: boolean;
  multiline?: boolean;
}

/** A labelled text input or textarea. */
export function TextField({ label, value, onChange, maxLength, readOnly, multiline }: TextFieldProps) {
  const id = useId();
  const common = {
    id,
    ref: useEarlyValue((field: HTMLInputElement | HTMLTextAreaElement) => field.value, value, onChange),
    value,
    maxLength,
    readOnly,
    onChange: (e: { target: { value: string } }) => onChange?.(e.target.value),
  };
  return (
    <div>
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {multiline ? (
        <textarea {...common} rows={2} className={`mt-1 resize-y ${inputClass}`} />
      ) : (
        <input {...common} className={`mt-1 ${readOnly ? readOnlyInputClass : inputClass}`} />
      )}
    </div>
  );
}
