import {
  arrivalState,
  CORRECTION_STATUSES,
  firstState,
  REQUEST_STATUSES,
  type RequestChannel,
  requestState,
  stateWords,
} from '@ros/domain';
import { cleanup, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '../form/ConfirmDialog';
import { SuccessView } from '../form/SuccessView';
import { renderApp } from '../test/render';

/**
 * Issue 36: the browser's surfaces say where a request stands in the words of @ros/domain's
 * statusWords: the status page (current status and every step, a corrected decision's outcome),
 * the success screen (issue 38: a NIA request is received on arrival), and the confirmation
 * dialog's warning about an earlier request. The server's surfaces (PDF, e-mails, SMS, the
 * correction's e-mail and SMS) are checked in packages/server/src/status/vocabulary.test.ts.
 */

vi.mock('../form/botcheck', () => ({
  getBotToken: vi.fn(async () => 'bot-token'),
  resetBotCheck: vi.fn(),
  BotCheckWidget: () => null,
}));

const LANGS = ['cs', 'en'] as const;
const PATH = { cs: '/stav-zadosti', en: '/request-status?lang=en' };
const NOW = { cs: 'Aktuální stav:', en: 'Current status:' };

describe('the status page says each state in the vocabulary', () => {
  for (const lang of LANGS)
    for (const channel of ['pdf', 'nia'] as RequestChannel[])
      for (const status of REQUEST_STATUSES) {
        it(`${lang}, ${channel}, ${status}`, async () => {
          const events =
            status === 'new' ? [] : [{ status, at: '2026-11-18T10:00:00.000Z', note: null as string | null }];
          renderApp({
            path: `${PATH[lang]}#ROS-2026-000123/ABCDEFGHJKMN`,
            api: {
              '/api/ros/status': {
                status: 200,
                body: {
                  reference: 'ROS-2026-000123',
                  status,
                  channel,
                  submitted_at: '2026-11-17T10:00:00.000Z',
                  events,
                  certificate: null,
                },
              },
            },
          });
          const now = await screen.findByTestId('status-now');
          expect(now.textContent).toBe(
            `${NOW[lang]} ${stateWords(lang, requestState(status, channel)).state}`,
          );
          const titles = screen
            .getAllByTestId('status-step')
            .map((s) => s.querySelector('.status-timeline__title')?.firstChild?.textContent);
          expect(titles).toEqual([
            stateWords(lang, firstState(channel)).step,
            stateWords(lang, requestState(status, channel)).step,
          ]);
          cleanup();
        });
      }
});

const CORRECTED = { cs: 'Rozhodnutí opraveno', en: 'Decision corrected' };

describe('a corrected decision on the status page says its outcome in the vocabulary (issue 38)', () => {
  for (const lang of LANGS)
    for (const channel of ['pdf', 'nia'] as RequestChannel[])
      for (const status of CORRECTION_STATUSES) {
        // A decision corrected to any status (the same decision again is no correction).
        const decided = status === 'refused' ? 'issued' : 'refused';
        it(`${lang}, ${channel}, ${decided} corrected to ${status}`, async () => {
          renderApp({
            path: `${PATH[lang]}#ROS-2026-000123/ABCDEFGHJKMN`,
            api: {
              '/api/ros/status': {
                status: 200,
                body: {
                  reference: 'ROS-2026-000123',
                  status,
                  channel,
                  submitted_at: '2026-11-17T10:00:00.000Z',
                  events: [
                    { status: 'received', at: '2026-11-17T10:00:00.000Z', note: null, correction: false },
                    { status: decided, at: '2026-11-18T10:00:00.000Z', note: null, correction: false },
                    { status, at: '2026-11-19T10:00:00.000Z', note: 'Omyl.', correction: true },
                  ],
                  certificate: null,
                },
              },
            },
          });
          const now = await screen.findByTestId('status-now');
          expect(now.textContent).toBe(
            `${NOW[lang]} ${stateWords(lang, requestState(status, channel)).state}`,
          );
          const last = screen.getAllByTestId('status-step').at(-1);
          expect(last?.querySelector('.status-timeline__title')?.firstChild?.textContent).toBe(
            CORRECTED[lang],
          );
          expect(screen.getByTestId('status-corrected-outcome').textContent).toBe(
            stateWords(lang, requestState(status, channel)).step,
          );
          cleanup();
        });
      }
});

describe('the success screen and the dialog use the vocabulary', () => {
  for (const lang of LANGS) {
    it(`${lang}: the success screen of each route says where the request stands`, async () => {
      for (const channel of ['pdf', 'nia'] as RequestChannel[]) {
        renderApp({
          path: lang === 'en' ? '/form?lang=en' : '/form',
          api: {},
          children: (
            <SuccessView
              answer={{
                text: '',
                id: 'x'.repeat(24),
                reference: 'ROS-2026-000123',
                ...(channel === 'nia' ? { email: true as const } : {}),
                access_code: 'ABCD-EFGH-JKLM',
              }}
              attachments={[]}
            />
          ),
        });
        const state = await screen.findByTestId('submit-state');
        expect(state.textContent).toBe(stateWords(lang, arrivalState(channel)).step);
        // What the status page says of a request just sent: its current state is the same.
        expect(arrivalState(channel)).toBe(requestState(channel === 'pdf' ? 'new' : 'received', channel));
        cleanup();
      }
    });

    it(`${lang}: the warning about an earlier request says it was filled in, not received`, async () => {
      renderApp({
        path: lang === 'en' ? '/form?lang=en' : '/form',
        children: (
          <ConfirmDialog
            variant="invalidDate"
            reason={{ rule: 'repeat-request', filedOn: '2026-11-10', until: '2026-12-10' }}
            nia
            duplicate={false}
            contact={{ email: 'jana@example.cz', telephone: '', dial_code: '+420' }}
            notifyEmail={false}
            notifyPhone={false}
            onNotifyEmail={() => {}}
            onNotifyPhone={() => {}}
            processing={false}
            onSubmit={() => {}}
            onClose={() => {}}
          />
        ),
      });
      const warning = (await screen.findByTestId('confirm-warning')).textContent ?? '';
      expect(warning).toContain(stateWords(lang, 'filled').state);
      expect(warning).not.toMatch(/přijal|received/i);
      cleanup();
    });

    it(`${lang}: the duplicate warning says an earlier duplicate request was filled in, not received`, async () => {
      renderApp({
        path: lang === 'en' ? '/form?lang=en' : '/form',
        children: (
          <ConfirmDialog
            variant="invalidDuplicates"
            duplicate
            contact={{ email: 'jana@example.cz', telephone: '', dial_code: '+420' }}
            notifyEmail={false}
            notifyPhone={false}
            onNotifyEmail={() => {}}
            onNotifyPhone={() => {}}
            processing={false}
            onSubmit={() => {}}
            onClose={() => {}}
          />
        ),
      });
      const warning = (await screen.findByTestId('confirm-warning')).textContent ?? '';
      expect(warning).toContain(stateWords(lang, 'filled').state);
      expect(warning).not.toMatch(/přijal|received/i);
      cleanup();
    });
  }
});
