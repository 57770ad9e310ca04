import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { formBody, PAGE_HEADERS } from '../../nia/testProvider.js';
import { CONSOLE_TEST_PROVIDER_PATH } from './paths.js';
import type { ConsoleTestProvider } from './testProvider.js';
import { errorPage, pickerPage } from './testProviderPages.js';
import { testStaff } from './testStaff.js';

/**
 * The local staff provider's routes under /urad-test (mounted by routes.ts only while the console
 * and ROS_CONSOLE_TEST_PROVIDER are on): the picker page, its two buttons, and everything else
 * handed to oidc-provider. Registered in a scope of its own: the provider reads its own bodies.
 */
export function consoleTestProviderRoutes(
  getProvider: (req: IncomingMessage) => Promise<ConsoleTestProvider>,
) {
  return async (app: FastifyInstance) => {
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const expired = (reply: FastifyReply) =>
      reply
        .status(400)
        .headers(PAGE_HEADERS)
        .send(errorPage('Přihlášení vypršelo, začněte znovu. / Sign-in expired: start again.'));

    app.get<{ Params: { uid: string } }>(
      `${CONSOLE_TEST_PROVIDER_PATH}/interaction/:uid`,
      async (req, reply) => {
        const { provider } = await getProvider(req.raw);
        try {
          const details = await provider.interactionDetails(req.raw, reply.raw);
          if (details.uid !== req.params.uid) throw new Error('interaction mismatch');
        } catch {
          return expired(reply);
        }
        return reply.headers(PAGE_HEADERS).send(pickerPage(req.params.uid));
      },
    );

    const finish =
      (abort: boolean) => async (req: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply) => {
        const { provider } = await getProvider(req.raw);
        const form = await formBody(req.raw);
        let accountId: string | undefined;
        try {
          const details = await provider.interactionDetails(req.raw, reply.raw);
          if (details.uid !== req.params.uid) throw new Error('interaction mismatch');
          if (!abort) {
            accountId = testStaff(form.get('staff') ?? '')?.subject;
            if (!accountId) return reply.status(400).headers(PAGE_HEADERS).send(pickerPage(req.params.uid));
          }
        } catch {
          return expired(reply);
        }
        reply.hijack();
        const result = abort
          ? { error: 'access_denied', error_description: 'End-User aborted interaction' }
          : { login: { accountId, amr: ['pwd'] } };
        await provider.interactionFinished(req.raw, reply.raw as ServerResponse, result, {
          mergeWithLastSubmission: false,
        });
      };
    app.post<{ Params: { uid: string } }>(
      `${CONSOLE_TEST_PROVIDER_PATH}/interaction/:uid/login`,
      finish(false),
    );
    app.post<{ Params: { uid: string } }>(
      `${CONSOLE_TEST_PROVIDER_PATH}/interaction/:uid/abort`,
      finish(true),
    );

    const pass = async (req: FastifyRequest, reply: FastifyReply) => {
      const { handle } = await getProvider(req.raw);
      reply.hijack();
      handle(req.raw, reply.raw);
    };
    app.all(CONSOLE_TEST_PROVIDER_PATH, pass);
    app.all(`${CONSOLE_TEST_PROVIDER_PATH}/*`, pass);
  };
}
