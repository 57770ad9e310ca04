import { AUTHORITY } from '@ros/domain';
import { useLang } from './lang';
import { CONTACT_MAILBOX, EXTERNAL_LINKS } from './links';
import { useMetadataState } from './metadata';
import { useT } from './translate';

function ExternalLink({ href, children }: { href: string; children: string }) {
  const { t } = useT();
  return (
    <a href={href} rel="noopener" className="footer__link footer__link--external">
      {children}
      <span className="visually-hidden"> ({t('FOOTER.EXTERNAL')})</span>
    </a>
  );
}

export function Footer() {
  const { t } = useT();
  const lang = useLang();
  const { state } = useMetadataState();
  const links = EXTERNAL_LINKS[lang];
  const year = new Date().getFullYear();
  const version = state.status === 'ready' ? state.metadata.version : '';

  return (
    <footer className="footer">
      <div className="container footer__inner">
        <div className="footer__about">
          <p className="footer__authority">{t('SHELL.AUTHORITY')}</p>
          {/* The address and data box of @ros/domain's AUTHORITY, as the success screen and PDF give them. */}
          <p className="footer__address" data-testid="footer-address">
            {AUTHORITY.address[lang]}
            <br />
            {t('FOOTER.DATA_BOX', { id: AUTHORITY.dataBox })}
          </p>
          <p>
            {t('FOOTER.MAILBOX')}{' '}
            <a href={`mailto:${CONTACT_MAILBOX}`} className="footer__link">
              {CONTACT_MAILBOX}
            </a>
          </p>
        </div>
        <nav aria-label={t('FOOTER.NAV_LABEL')} className="footer__nav">
          <ul className="footer__list">
            <li>
              <ExternalLink href={links.contacts}>{t('FOOTER.CONTACTS')}</ExternalLink>
            </li>
            <li>
              <ExternalLink href={links.accessibility}>{t('FOOTER.ACCESSIBILITY')}</ExternalLink>
            </li>
            <li>
              <ExternalLink href={links.privacy}>{t('FOOTER.PRIVACY')}</ExternalLink>
            </li>
            <li>
              <ExternalLink href={links.social}>{t('FOOTER.SOCIAL')}</ExternalLink>
            </li>
          </ul>
        </nav>
      </div>
      <div className="container footer__bottom">
        <p data-testid="footer-copyright">
          © {year} {t('SHELL.AUTHORITY')}
          {version ? (
            <>
              {' · '}
              <span data-testid="footer-version">{t('FOOTER.VERSION', { version })}</span>
            </>
          ) : null}
        </p>
      </div>
    </footer>
  );
}
