import type { FormValues } from '@ros/domain';
import { type Path, useWatch } from 'react-hook-form';
import { DateInput } from '../../../components/DateInput';
import { type CommonProps, FramedField, useFieldFrame, useSetField } from '../controls';

/**
 * The control of a `date` entry (the birth date): typed dd.mm.yyyy, stored ISO (DateInput). Its
 * frame (label, hint, "(optional)", message) is a text box's (FramedField).
 */
export function DateField({
  path,
  label,
  hint,
  optional,
  info,
  className,
  autoComplete,
}: CommonProps & { autoComplete?: string }) {
  const frame = useFieldFrame(path, label, optional);
  const { id, readOnly, isOptional } = frame;
  const set = useSetField();
  const value = String(useWatch<FormValues>({ name: path }) ?? '');
  return (
    <FramedField frame={frame} hint={hint} info={info} className={className}>
      {(describedBy, invalid) => (
        <DateInput
          id={id}
          value={value}
          readOnly={readOnly}
          describedBy={describedBy}
          invalid={invalid}
          required={!isOptional}
          autoComplete={autoComplete}
          onChange={(iso) => set(path as Path<FormValues>, iso)}
        />
      )}
    </FramedField>
  );
}
