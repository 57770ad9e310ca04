import { Field as PlainField, type FieldProps as PlainFieldProps } from '../components/Field';
import { useT } from '../shell/translate';

export type FieldProps = Omit<PlainFieldProps, 'optionalMarker' | 'infoLabel'> & {
  /** Adds "(optional)" to the label. */
  optional?: boolean;
};

/** A form field (components/Field.tsx) with the form's words: "(optional)" and the info button's name. */
export function Field({ optional, ...props }: FieldProps) {
  const { t } = useT();
  return (
    <PlainField
      {...props}
      optionalMarker={optional ? t('FORM.OPTIONAL') : undefined}
      infoLabel={props.info ? t('FORM.TOOLTIPS.INFO_LABEL', { field: props.label }) : undefined}
    />
  );
}
