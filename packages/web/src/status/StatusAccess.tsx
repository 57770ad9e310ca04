import { normalizeAccessCode, parseReference, statusPagePath } from '@ros/domain';
import { useLang } from '../shell/lang';
import { useT } from '../shell/translate';

/**
 * On the success screen (docs/status.md): the status page's access code and the link that opens
 * the page with the reference and the code. Nothing when the answer carries no code.
 */
export function StatusAccess({ reference, accessCode }: { reference: string; accessCode?: string }) {
  const { t } = useT();
  const lang = useLang();
  const code = accessCode ? normalizeAccessCode(accessCode) : null;
  const ref = parseReference(reference);
  if (!code || !ref || !accessCode) return null;
  return (
    <section className="card form-section" aria-labelledby="status-access-title" data-testid="status-access">
      <h2 id="status-access-title">{t('STATUS.ACCESS.TITLE')}</h2>
      <p>{t('STATUS.ACCESS.TEXT')}</p>
      <p>
        {t('STATUS.ACCESS.CODE')}: <strong data-testid="status-access-code">{accessCode}</strong>
      </p>
      <p>
        <a href={statusPagePath(lang, ref, code)} data-testid="status-access-link">
          {t('STATUS.ACCESS.LINK')}
        </a>
      </p>
    </section>
  );
}
