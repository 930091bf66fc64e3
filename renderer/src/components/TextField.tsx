import type { InputHTMLAttributes } from 'react';

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'className'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Takes the row's remaining width. */
  grow?: boolean;
}

/** A labelled text input of the app's forms; other input attributes (type, required, maxLength…) pass through. */
export function TextField({ label, value, onChange, grow, ...input }: Props) {
  return (
    <label className={grow ? 'field grow' : 'field'}>
      <span>{label}</span>
      <input {...input} value={value} onChange={(event) => onChange(event.target.value)} />
    </label>
  );
}
