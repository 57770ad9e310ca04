import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../test/render';

const ANSWER = {
  reference: 'ROS-2026-000123',
  status: 'documents_needed',
  channel: 'pdf',
  submitted_at: '2026-11-17T10:00:00.000Z',
  events: [
    { status: 'received', at: '2026-11-18T10:00:00.000Z', note: null },
    { status: 'documents_needed', at: '2026-11-19T23:30:00.000Z', note: 'Pošlete kopii pasu.' },
  ],
  certificate: null,
};

describe('request status page (issue 26)', () => {
  it("opens from a link's fragment: the timeline with Prague dates and the note, the last step current", async () => {
    const { fetchMock } = renderApp({
      path: '/stav-zadosti#ROS-2026-000123/ABCDEFGHJKMN',
      api: { '/api/ros/status': { status: 200, body: ANSWER } },
    });
    const result = await screen.findByTestId('status-result');
    expect(within(result).getByRole('heading', { level: 2 })).toHaveTextContent('Žádost ROS-2026-000123');
    const steps = screen.getAllByTestId('status-step');
    expect(steps.map((s) => s.textContent)).toEqual([
      expect.stringContaining('17.11.2026'),
      expect.stringContaining('18.11.2026'),
      // 23:30 UTC is the next day in Prague.
      expect.stringContaining('20.11.2026'),
    ]);
    expect(steps[2]).toHaveAttribute('aria-current', 'step');
    expect(screen.getByTestId('status-note')).toHaveTextContent('Pošlete kopii pasu.');
    // The code stays on the page the success screen's link leads to (issue 36).
    expect(screen.getByTestId('status-code')).toHaveTextContent('Přístupový kód: ABCD-EFGH-JKMN');
    const [, init] = fetchMock.mock.calls.find(([url]) => url === '/api/ros/status') ?? [];
    expect(JSON.parse(String((init as RequestInit).body))).toEqual({
      reference: 'ROS-2026-000123',
      code: 'ABCDEFGHJKMN',
    });
  });

  it('waits for the signed paper while new on the paper route', async () => {
    renderApp({
      path: '/request-status?lang=en#ROS-2026-000123/ABCDEFGHJKMN',
      api: {
        '/api/ros/status': { status: 200, body: { ...ANSWER, status: 'new', events: [] } },
      },
    });
    expect(
      await screen.findByText('Waiting for your signed request – the Authority does not have it yet'),
    ).toBeVisible();
  });

  it('links the validity check of an issued certificate', async () => {
    renderApp({
      path: '/stav-zadosti#ROS-2026-000123/ABCDEFGHJKMN',
      api: {
        '/api/ros/status': {
          status: 200,
          body: {
            ...ANSWER,
            status: 'issued',
            events: [...ANSWER.events, { status: 'issued', at: '2026-11-21T10:00:00.000Z', note: null }],
            certificate: '990000001x2070',
          },
        },
      },
    });
    const link = await screen.findByTestId('status-validity-link');
    expect(link).toHaveAttribute('href', '/check?id=990000001x2070');
    expect(screen.getAllByTestId('status-step').at(-1)).not.toHaveAttribute('aria-current');
  });

  it('shows a corrected certificate as a correction with its reason, and links the right one only (issue 38)', async () => {
    renderApp({
      path: '/stav-zadosti#ROS-2026-000123/ABCDEFGHJKMN',
      api: {
        '/api/ros/status': {
          status: 200,
          body: {
            ...ANSWER,
            status: 'issued',
            events: [
              { status: 'received', at: '2026-11-18T10:00:00.000Z', note: null, correction: false },
              { status: 'issued', at: '2026-11-21T10:00:00.000Z', note: null, correction: false },
              {
                status: 'issued',
                at: '2026-11-23T10:00:00.000Z',
                note: 'V odkazu byl uveden jiný doklad.',
                correction: true,
              },
            ],
            certificate: '990000002x2071',
          },
        },
      },
    });
    await screen.findByTestId('status-result');
    const steps = screen.getAllByTestId('status-step');
    expect(steps).toHaveLength(4);
    // The replaced decision stays in the history, marked, with no link.
    expect(steps[2]).toHaveTextContent('Rozhodnuto: doklad o spolehlivosti byl vydán');
    expect(steps[2]).toHaveTextContent('Toto rozhodnutí úřad později opravil.');
    expect(within(steps[2] as HTMLElement).queryByTestId('status-validity-link')).toBeNull();
    // The correction: its own title, the corrected outcome, the reason, the right certificate.
    const last = steps[3] as HTMLElement;
    expect(within(last).getByText('Rozhodnutí opraveno')).toBeVisible();
    expect(last).toHaveTextContent('23.11.2026');
    expect(within(last).getByTestId('status-corrected-outcome')).toHaveTextContent(
      'Rozhodnuto: doklad o spolehlivosti byl vydán',
    );
    const reason = within(last).getByTestId('status-correction-reason');
    expect(reason).toHaveTextContent('Důvod opravy: V odkazu byl uveden jiný doklad.');
    // The authority's words are Czech on either page (WCAG 3.1.2).
    expect(within(reason).getByText('V odkazu byl uveden jiný doklad.')).toHaveAttribute('lang', 'cs');
    expect(last).not.toHaveTextContent('Toto rozhodnutí úřad později opravil.');
    expect(last).not.toHaveAttribute('aria-current');
    expect(screen.getAllByTestId('status-validity-link')).toHaveLength(1);
    expect(within(last).getByTestId('status-validity-link')).toHaveAttribute(
      'href',
      '/check?id=990000002x2071',
    );
    expect(screen.getByTestId('status-now')).toHaveTextContent('vyřízena: doklad byl vydán');
  });

  it('in English: a refusal corrected back to processing is the current step', async () => {
    renderApp({
      path: '/request-status?lang=en#ROS-2026-000123/ABCDEFGHJKMN',
      api: {
        '/api/ros/status': {
          status: 200,
          body: {
            ...ANSWER,
            status: 'in_progress',
            events: [
              { status: 'received', at: '2026-11-18T10:00:00.000Z', note: null, correction: false },
              { status: 'refused', at: '2026-11-21T10:00:00.000Z', note: null, correction: false },
              {
                status: 'in_progress',
                at: '2026-11-22T10:00:00.000Z',
                note: 'Zamítnutí bylo chybné.',
                correction: true,
              },
            ],
          },
        },
      },
    });
    await screen.findByTestId('status-result');
    const steps = screen.getAllByTestId('status-step');
    expect(steps[2]).toHaveTextContent('Decided: the request was refused');
    expect(steps[2]).toHaveTextContent('The Authority corrected this decision later.');
    expect(steps[2]).not.toHaveAttribute('aria-current');
    expect(steps[3]).toHaveTextContent('Decision corrected');
    expect(steps[3]).toHaveTextContent('Request being processed');
    expect(steps[3]).toHaveTextContent('Reason for the correction: Zamítnutí bylo chybné.');
    expect(steps[3]).toHaveAttribute('aria-current', 'step');
    expect(screen.getByTestId('status-now')).toHaveTextContent('being processed');
    expect(screen.queryByTestId('status-validity-link')).toBeNull();
  });

  it('a NIA request is received the day it was sent: no wait for the Authority (issue 38)', async () => {
    const nia = {
      ...ANSWER,
      channel: 'nia',
      status: 'received',
      submitted_at: '2026-11-17T10:00:00.000Z',
      events: [{ status: 'received', at: '2026-11-17T10:00:00.000Z', note: null, correction: false }],
    };
    renderApp({
      path: '/request-status?lang=en#ROS-2026-000123/ABCDEFGHJKMN',
      api: { '/api/ros/status': { status: 200, body: nia } },
    });
    await screen.findByTestId('status-result');
    expect(screen.getAllByTestId('status-step').map((s) => s.textContent)).toEqual([
      expect.stringMatching(/^Request sent to the Authority electronically17\.11\.2026$/),
      expect.stringMatching(/^Request received by the Authority.*17\.11\.2026$/),
    ]);
    expect(screen.queryByText(/Waiting for the Authority/)).toBeNull();
    expect(screen.getByTestId('status-now')).toHaveTextContent('received by the Authority');
  });

  it('a NIA request stored before issue 38 still waits for the Authority while new', async () => {
    renderApp({
      path: '/stav-zadosti#ROS-2026-000123/ABCDEFGHJKMN',
      api: {
        '/api/ros/status': { status: 200, body: { ...ANSWER, channel: 'nia', status: 'new', events: [] } },
      },
    });
    const steps = await screen.findAllByTestId('status-step');
    expect(steps.map((s) => s.textContent)).toEqual([
      expect.stringContaining('Žádost odeslána úřadu elektronicky'),
      expect.stringContaining('Čeká na převzetí úřadem'),
    ]);
  });

  it('shows the one answer for a wrong code, and keeps what was typed', async () => {
    renderApp({
      path: '/request-status?lang=en',
      api: {
        '/api/ros/status': {
          status: 404,
          body: {
            error: { code: 'STATUS_NOT_FOUND', message: 'No request has this reference and access code' },
          },
        },
      },
    });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Reference number'), 'ros-2026-000123');
    await user.type(screen.getByLabelText('Access code'), 'abcd efgh jkmn{Enter}');
    expect(await screen.findByTestId('status-not-found')).toHaveTextContent('We found no request');
    expect(screen.getByLabelText('Access code')).toHaveValue('abcd efgh jkmn');
  });
});
