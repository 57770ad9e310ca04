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
