import { type FormValues, isFieldHidden, normalizeName } from '@ros/domain';
import { ApiError } from '../errors.js';
import type { NiaIdentity } from './sessions.js';

export const NIA_MISMATCH_CODE = 'NIA_IDENTITY_MISMATCH';

/**
 * A request sent with a NIA session is the signed-in person's own: its first and last name
 * must be NIA's (compared as the register compares names: case, diacritics and outer spaces
 * ignored) and its birth date NIA's. A duplicate request has no birth date field; when it
 * sends one anyway, it must match too. Mismatch: 400 NIA_IDENTITY_MISMATCH with the fields.
 */
export function checkNiaIdentity(identity: NiaIdentity, values: FormValues, duplicate: boolean): void {
  const fields: Array<{ path: string; message: string }> = [];
  if (normalizeName(values.first_name) !== normalizeName(identity.first_name ?? '')) {
    fields.push({ path: 'first_name', message: 'niaMismatch' });
  }
  if (normalizeName(values.last_name) !== normalizeName(identity.last_name ?? '')) {
    fields.push({ path: 'last_name', message: 'niaMismatch' });
  }
  const birth = values.birth_date.trim();
  if (
    (!isFieldHidden('birth_date', { duplicate }) || birth !== '') &&
    birth !== (identity.birth_date ?? '')
  ) {
    fields.push({ path: 'birth_date', message: 'niaMismatch' });
  }
  if (fields.length > 0) {
    throw new ApiError(
      400,
      NIA_MISMATCH_CODE,
      'The name or birth date of the request is not that of the person signed in through NIA',
      fields,
    );
  }
}
