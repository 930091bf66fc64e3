import type { Case } from '../../api/types.js';

export interface RequesterDraft {
  name: string;
  email: string;
  phone: string;
  address: string;
}

type Contact = NonNullable<Case['requester']>;

export function draftOf(contact: Case['requester']): RequesterDraft {
  return { name: contact?.name ?? '', email: contact?.email ?? '', phone: contact?.phone ?? '', address: contact?.address ?? '' };
}

/** The contact to send, or null when no name was given (a contact needs at least a name). */
export function requesterOf(draft: RequesterDraft): Contact | null {
  if (!draft.name.trim()) return null;
  return { name: draft.name.trim(), email: draft.email.trim() || null, phone: draft.phone.trim() || null, address: draft.address.trim() || null };
}

/** The requester's contact: internal to the office, never part of a release. */
export function RequesterFields({ value, onChange }: { value: RequesterDraft; onChange: (next: RequesterDraft) => void }) {
  const field = (name: keyof RequesterDraft, label: string, type = 'text', autoComplete = 'off') => (
    <label className="field">
      <span>{label}</span>
      <input type={type} value={value[name]} autoComplete={autoComplete} onChange={(event) => onChange({ ...value, [name]: event.target.value })} maxLength={name === 'address' ? 1000 : 300} />
    </label>
  );
  return (
    <div className="requester-fields">
      {field('name', 'Name')}
      {field('email', 'E-mail', 'email')}
      {field('phone', 'Telephone', 'tel')}
      {field('address', 'Postal address')}
    </div>
  );
}
