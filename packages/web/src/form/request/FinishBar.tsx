import { Button } from '../../components/Button';
import { Tooltip } from '../../components/Tooltip';
import { useT } from '../../shell/translate';
import { useCoverageOk, useFormStatus } from './context';

export type FinishState = 'valid' | 'invalid' | 'uncovered';

/** valid / invalid (a rule fails) / uncovered (only months of the last 5 years missing). */
export function useFinishState(): FinishState {
  const formOk = useFormStatus((s) => s.formOk);
  const covered = useCoverageOk();
  if (!formOk) return 'invalid';
  return covered ? 'valid' : 'uncovered';
}

/**
 * The end of the form: the finish button (highlighted when the form is valid, ⚠ when not, 🕒
 * when only months are missing; spec section 2) and "Discard and start over". While the server
 * checks the request (POST /validate) the button says so and stays where the focus is.
 */
export function FinishBar({ validating, onStartOver }: { validating: boolean; onStartOver: () => void }) {
  const { t } = useT();
  const state = useFinishState();
  return (
    <div className="form-actions">
      {/* The tooltip explains the ⚠ / 🕒 icon; the same state is in the button's name for screen readers. */}
      <Tooltip
        content={state === 'valid' ? null : t(`FORM.TOOLTIPS.FINISH.${state}`)}
        position="top"
        tapToggle={false}
      >
        {(describedBy) => (
          <Button
            type="submit"
            variant={state === 'valid' ? 'primary' : 'outlined'}
            size="l"
            expandMobile
            className={`finish finish--${state}`}
            id="finish"
            data-testid="finish"
            data-state={state}
            aria-describedby={describedBy}
            aria-disabled={validating || undefined}
          >
            {validating ? (
              <span className="spinner__circle spinner__circle--button" aria-hidden="true" />
            ) : (
              <span aria-hidden="true" className="finish__icon">
                {state === 'invalid' ? '⚠' : state === 'uncovered' ? '🕒' : '✓'}
              </span>
            )}{' '}
            {validating ? t('FORM.VALIDATING') : t('FORM.FINISH')}
            {state !== 'valid' && !validating && (
              <span className="visually-hidden"> ({t(`FORM.FINISH_STATE.${state}`)})</span>
            )}
          </Button>
        )}
      </Tooltip>
      <Button variant="link" onClick={onStartOver}>
        {t('FORM.START_OVER')}
      </Button>
      <p className="visually-hidden" role="status">
        {validating ? t('FORM.VALIDATING') : ''}
      </p>
    </div>
  );
}
