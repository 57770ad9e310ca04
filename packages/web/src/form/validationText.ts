import type { FieldError } from 'react-hook-form';
import { useT } from '../shell/translate';

type Params = Record<string, string | number> | undefined;

/** The text of a domain message key (VALIDATION.<key>), with its values ({max} …). */
export function useValidationText(): (error: FieldError | undefined, max?: number) => string {
  const text = useMessageText();
  return (error, max) => {
    if (!error) return '';
    return text(typeof error.message === 'string' ? error.message : '', max);
  };
}

/**
 * VALIDATION.<key> with {max} and the error's other values ({char}, {code} of the first character
 * the PDF cannot print) filled; an unknown key gives VALIDATION.unknown. Without its character
 * (a form that keeps only the key) `unprintableCharacters` says so without naming it.
 */
export function useMessageText(): (key: string, max?: number, params?: Params) => string {
  const { t, exists } = useT();
  return (key, max, params) => {
    const named = key === 'unprintableCharacters' && params?.char === undefined ? `${key}Any` : key;
    const full = `VALIDATION.${named || 'unknown'}`;
    return exists(full) ? t(full, { ...params, max: max ?? params?.max ?? '' }) : t('VALIDATION.unknown');
  };
}
