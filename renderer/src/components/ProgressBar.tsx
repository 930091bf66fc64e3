import { formatPercent } from '../domain/format.js';

interface Props {
  /** 0–1, or null while the amount is not known yet. */
  value: number | null;
  label: string;
  tone?: 'normal' | 'error' | 'done';
}

export function ProgressBar({ value, label, tone = 'normal' }: Props) {
  return (
    <div
      className={`progress progress-${tone}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      {...(value !== null && { 'aria-valuenow': Math.round(value * 100), 'aria-valuetext': formatPercent(value) })}
    >
      <div className={value === null ? 'progress-fill indeterminate' : 'progress-fill'} style={value === null ? undefined : { width: formatPercent(value) }} />
    </div>
  );
}
