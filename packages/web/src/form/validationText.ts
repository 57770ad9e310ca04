import type { FieldError } from 'react-hook-form';
import { useT } from '../shell/translate';

/** The text of a domain message key (VALIDATION.<key>), with its values ({max} …). */
export function useValidationText(): (error: FieldError | undefined, max?: number) => string {
  const text = useMessageText();
  return (error, max) => {
    if (!error) return '';
    return text(typeof error.message === 'string' ? error.message : '', max);
  };
}

/** VALIDATION.<key> with {max} filled; an unknown key gives VALIDATION.unknown. */
export function useMessageText(): (key: string, max?: number) => string {
  const { t, exists } = useT();
  return (key, max) => {
    const full = `VALIDATION.${key || 'unknown'}`;
    return exists(full) ? t(full, { max: max ?? '' }) : t('VALIDATION.unknown');
  };
}
