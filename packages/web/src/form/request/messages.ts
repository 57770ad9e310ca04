import { maxLengthFor, type ValidationError } from '@ros/domain';
import { useT } from '../../shell/translate';
import { useMessageText } from '../validationText';

/** The field's key in FORM.ERRORS.FIELD: rows drop their index ('past_activities.0.from' -> 'past_activities.from'). */
const errorFieldKey = (path: string) => path.replace(/\.\d+\./, '.');

const maxOf = (path: string, e: ValidationError) =>
  e.params?.max !== undefined ? Number(e.params.max) : maxLengthFor(path);

/**
 * The texts of a field error (GOV.UK style: the message names its field, "Enter your first
 * name"). The domain's message keys stay what the rules return; the text is
 * FORM.ERRORS.FIELD.<field>.<key> where one is written, else the key's general text.
 */
export function useErrorTexts() {
  const { t, exists } = useT();
  const message = useMessageText();
  const own = (path: string, e: ValidationError): string | null => {
    const key = `FORM.ERRORS.FIELD.${errorFieldKey(path)}.${e.key}`;
    return exists(key) ? t(key, { ...e.params, max: maxOf(path, e) }) : null;
  };
  return {
    /** Under the control: its own text, else the key's (the label is right above). */
    underField: (path: string, e: ValidationError): string =>
      own(path, e) ?? message(e.key, maxOf(path, e), e.params),
    /** In the error summary, far from the label: the text must say which field. */
    inSummary: (path: string, e: ValidationError, label: string): string => {
      const text = own(path, e);
      if (text) return text;
      if (e.key === 'maxlength' || e.key === 'pattern' || !exists(`VALIDATION.${e.key}`)) {
        const generic = e.key === 'maxlength' ? 'maxlength' : 'pattern';
        return t(`FORM.ERRORS.GENERIC.${generic}`, { field: label, max: maxOf(path, e) });
      }
      return t('FORM.ERRORS.GENERIC.other', {
        field: label,
        message: message(e.key, maxOf(path, e), e.params),
      });
    },
  };
}
