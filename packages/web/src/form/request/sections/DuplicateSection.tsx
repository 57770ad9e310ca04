import { toggleDuplicateType } from '@ros/domain';
import { SectionFields } from '../SectionFields';

/**
 * Why a duplicate (a duplicate request's: FORM_SECTIONS): the reasons are a list of codes, so
 * checkboxes by their kind (CheckboxesField: the server list's names, as the PDF has them; one the
 * authority switched off is shown but cannot be ticked). The section's own rule: POSKOZENI and
 * ODCIZENI exclude each other.
 */
export function DuplicateSection() {
  return <SectionFields name="duplicate" place={{ duplicate_type: { toggle: toggleDuplicateType } }} />;
}
