// Labels of detection entity kinds. Typed against the server's list, so a new kind fails the typecheck here
// until it has a label (the server's table lives in a zod module the renderer does not bundle).
import type { EntityKind } from '../api/types.js';

export const ENTITY_LABELS = {
  ssn: 'Social Security number',
  email: 'Email address',
  phone: 'Phone number',
  payment_card: 'Payment card number',
  iban: 'IBAN (bank account)',
  routing_number: 'Bank routing number',
  ip_address: 'IP address',
  date_of_birth: 'Date of birth',
  passport_number: 'Passport number',
  drivers_license: "Driver's licence number",
  street_address: 'Street address',
  person_name: 'Person name',
  custom_term: 'Custom term',
  custom_pattern: 'Custom pattern',
} as const satisfies Record<EntityKind, string>;

export function entityLabel(kind: string): string {
  return kind in ENTITY_LABELS ? ENTITY_LABELS[kind as EntityKind] : kind.replaceAll('_', ' ');
}
