import type { Case } from '../api/types.js';

const PRIORITIES: { value: Case['priority']; label: string }[] = [
  { value: 'low', label: 'Low' },
  { value: 'normal', label: 'Normal' },
  { value: 'high', label: 'High' },
  { value: 'urgent', label: 'Urgent' },
];

/** The labelled priority field of the case forms (new case, edit details). */
export function PriorityField({ value, onChange }: { value: Case['priority']; onChange: (priority: Case['priority']) => void }) {
  return (
    <label className="field">
      <span>Priority</span>
      <select value={value} onChange={(event) => onChange(event.target.value as Case['priority'])}>
        {PRIORITIES.map((priority) => (
          <option key={priority.value} value={priority.value}>
            {priority.label}
          </option>
        ))}
      </select>
    </label>
  );
}
