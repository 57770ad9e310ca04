import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkCorrection, correctDecision } from '../../intake/correction.js';
import { findByReference, markReceived } from '../../intake/requests.js';
import { changeStatus, checkStatusChange } from '../../intake/status.js';
import { consentedChannels, resendNotice } from '../../notifications/notices.js';
import type { ServerContext } from '../../services.js';
import { certificatesOfRequest } from '../certificates.js';
import type { FieldError } from '../pages/Layout.js';
import { PreviewPage } from '../pages/PreviewPage.js';
import { CONSOLE_PATH, type Staff } from '../staff.js';
import { T } from '../texts.js';
import {
  auditConsole,
  type ConsoleDeps,
  formAllowed,
  formOf,
  frameOf,
  gate,
  sendMessage,
  sendPage,
} from './common.js';
import { referenceOf, showRequest } from './request.js';

/**
 * The clerk's actions on a request (issue 38 item 5), each a form of the request page:
 * receive; change the status with a note; issue with one of the person's certificates; correct a
 * decision with its reason; resend a notification given up. Status, issue and correction show
 * the applicant's view first (PreviewPage) and are saved only with `potvrdit=1`. Each is done by
 * the same function the intake API and `ros-admin` call (the same checks, history, notifications),
 * audited with the clerk's identity, and answered with 303 to the request page (Post/Redirect/Get).
 * A change that queued notifications kicks the mail queue, as the intake API does (else they
 * would wait for its next look, up to 30 s).
 */

type Form = 'status' | 'issue' | 'correct';

const done = (reply: FastifyReply, reference: string, what: string) =>
  reply.redirect(`${CONSOLE_PATH}/zadost/${reference}?hotovo=${what}`, 303);

/** Whether the request's personal data was erased (false also when there is no such request). */
async function erased(deps: ConsoleDeps, reference: string): Promise<boolean> {
  const row = await deps.db.kysely
    .selectFrom('requests')
    .select('erased_at')
    .where('reference', '=', reference)
    .executeTakeFirst();
  return row !== undefined && row.erased_at !== null;
}

/**
 * The staff member who may act and the request's reference, or null (the answer was sent). An
 * erased request takes no form at all (its page offers none, issue 38 item 7): 410 with what
 * stays, audited `gone`, before any preview could offer to store a note for it.
 */
async function actor(
  deps: ConsoleDeps,
  req: FastifyRequest,
  reply: FastifyReply,
  action: string,
): Promise<Actor | null> {
  const staff = await gate(deps, req, reply, 'act');
  if (!staff) return null;
  if (!formAllowed(req, staff)) {
    await auditConsole(deps, staff, 'csrf', null, 'denied');
    sendMessage(reply, deps, staff, 'badRequest');
    return null;
  }
  const reference = referenceOf(req.params);
  if (!reference) {
    sendMessage(reply, deps, staff, 'notFound');
    return null;
  }
  if (await erased(deps, reference)) {
    await auditConsole(deps, staff, action, reference, 'gone');
    sendMessage(reply, deps, staff, 'gone');
    return null;
  }
  return { staff, reference };
}

function formError(
  deps: ConsoleDeps,
  reply: FastifyReply,
  staff: Staff,
  reference: string,
  action: Form,
  errors: FieldError[],
  values: Record<string, string>,
  status = 400,
) {
  return showRequest(deps, reply, staff, reference, { status, form: { action, errors, values } });
}

/** The applicant's channels (the preview says how many notifications go out). */
async function noticeCount(deps: ConsoleDeps, reference: string): Promise<number> {
  const found = await findByReference(deps.db, reference);
  return found.kind === 'found' ? consentedChannels(found.request.values).length : 0;
}

type Actor = { staff: Staff; reference: string };
/** What a decision's preview shows of it (PreviewPage's own props). */
type Decision = Pick<
  Parameters<typeof PreviewPage>[0],
  'action' | 'status' | 'note' | 'certificate' | 'correction' | 'certificateLink'
>;

/** The applicant's view of a decision, before it is saved (its form sends `potvrdit=1` then). */
async function preview(deps: ConsoleDeps, reply: FastifyReply, a: Actor, decision: Decision) {
  const found = await findByReference(deps.db, a.reference);
  if (found.kind === 'none') return sendMessage(reply, deps, a.staff, 'notFound');
  return sendPage(
    reply,
    200,
    PreviewPage({
      frame: frameOf(deps, a.staff, 'queue'),
      reference: a.reference,
      viaNia: found.summary.channel === 'nia',
      ...decision,
      notices: await noticeCount(deps, a.reference),
    }),
  );
}

/** Why a decision was refused (409), by the outcome the store answered. */
function refusalText(outcome: string): string {
  const key =
    outcome === 'certificateMismatch' || outcome === 'erased' || outcome === 'notDecided'
      ? outcome
      : 'transition';
  return T.errors[key] ?? '';
}

/**
 * The answer to a saved decision, by its outcome: not found; `made` (the notifications it queued
 * are sent at once, and the request page says `doneKey`); already so; or its form again with why
 * it was refused, on `field`, with what was typed (409).
 */
function answerDecision(
  deps: ConsoleDeps,
  ctx: ServerContext,
  reply: FastifyReply,
  a: Actor,
  outcome: string,
  how: { made: string; doneKey: string; form: Form; field: string; values: Record<string, string> },
) {
  if (outcome === 'none') return sendMessage(reply, deps, a.staff, 'notFound');
  if (outcome === how.made) {
    ctx.services.mail.kick();
    return done(reply, a.reference, how.doneKey);
  }
  if (outcome === 'already') return done(reply, a.reference, 'already');
  return formError(
    deps,
    reply,
    a.staff,
    a.reference,
    how.form,
    [{ field: how.field, message: refusalText(outcome) }],
    how.values,
    409,
  );
}

export function actionRoutes(app: FastifyInstance, deps: ConsoleDeps, ctx: ServerContext): void {
  const base = `${CONSOLE_PATH}/zadost/:reference`;
  const checkLink = (certificate: string) =>
    `${ctx.config.publicUrl.replace(/\/$/, '')}/check?id=${certificate}`;

  app.post(`${base}/prevzit`, async (req, reply) => {
    const a = await actor(deps, req, reply, 'receive');
    if (!a) return reply;
    const r = await markReceived(deps.db, a.reference);
    await auditConsole(
      deps,
      a.staff,
      'receive',
      a.reference,
      r.outcome === 'none' ? 'not_found' : 'ok',
      r.outcome,
    );
    if (r.outcome === 'none') return sendMessage(reply, deps, a.staff, 'notFound');
    if (r.outcome === 'received') ctx.services.mail.kick();
    return done(reply, a.reference, r.outcome === 'received' ? 'received' : 'already');
  });

  app.post(`${base}/stav`, async (req, reply) => {
    const a = await actor(deps, req, reply, 'status');
    if (!a) return reply;
    const form = formOf(req);
    const values = { status: form.status ?? '', note: form.note ?? '' };
    const checked = checkStatusChange({ status: values.status, note: values.note || null });
    // Issue and receive have forms of their own (the certificate is chosen there).
    if (!checked.ok || checked.change.status === 'issued' || checked.change.status === 'received') {
      const errors: FieldError[] = checked.ok
        ? [{ field: 'stav-novy', message: T.errors.status ?? '' }]
        : checked.problems.map((p) =>
            p.path === 'note'
              ? { field: 'stav-poznamka', message: `${T.errors.note}: ${p.message}` }
              : { field: 'stav-novy', message: T.errors.status ?? '' },
          );
      await auditConsole(deps, a.staff, 'status', a.reference, 'invalid');
      return formError(deps, reply, a.staff, a.reference, 'status', errors, values);
    }
    const change = checked.change;
    if (form.potvrdit !== '1') {
      return preview(deps, reply, a, {
        action: 'stav',
        status: change.status,
        note: change.note ?? null,
        certificate: null,
        correction: false,
        certificateLink: null,
      });
    }
    const r = await changeStatus(deps.db, a.reference, change);
    await auditConsole(
      deps,
      a.staff,
      'status',
      a.reference,
      outcomeOf(r.outcome),
      `${r.outcome} ${change.status}`,
    );
    return answerDecision(deps, ctx, reply, a, r.outcome, {
      made: 'changed',
      doneKey: 'status',
      form: 'status',
      field: 'stav-novy',
      values,
    });
  });

  app.post(`${base}/vydat`, async (req, reply) => {
    const a = await actor(deps, req, reply, 'issue');
    if (!a) return reply;
    const form = formOf(req);
    const values = { certificate: form.certificate ?? '' };
    // Only one of the person's own certificates, as the page offered them (never a typed id).
    const own = await certificatesOfRequest(deps.db, a.reference);
    const chosen = own.find((c) => c.id === values.certificate);
    if (!chosen) {
      await auditConsole(deps, a.staff, 'issue', a.reference, 'invalid');
      return formError(
        deps,
        reply,
        a.staff,
        a.reference,
        'issue',
        [
          {
            field: 'vydani-doklad',
            message: (values.certificate ? T.errors.certificateMismatch : T.errors.certificate) ?? '',
          },
        ],
        values,
      );
    }
    if (form.potvrdit !== '1') {
      return preview(deps, reply, a, {
        action: 'vydat',
        status: 'issued',
        note: null,
        certificate: chosen.id,
        correction: false,
        certificateLink: checkLink(chosen.id),
      });
    }
    const r = await changeStatus(deps.db, a.reference, { status: 'issued', certificate: chosen.id });
    await auditConsole(deps, a.staff, 'issue', a.reference, outcomeOf(r.outcome), r.outcome);
    return answerDecision(deps, ctx, reply, a, r.outcome, {
      made: 'changed',
      doneKey: 'issued',
      form: 'issue',
      field: 'vydani-doklad',
      values,
    });
  });

  app.post(`${base}/oprava`, async (req, reply) => {
    const a = await actor(deps, req, reply, 'correct');
    if (!a) return reply;
    const form = formOf(req);
    const values = {
      status: form.status ?? '',
      certificate: form.certificate ?? '',
      reason: form.reason ?? '',
    };
    const errors: FieldError[] = [];
    // The certificate, when one is chosen, must be one the page offered: the person's own.
    if (values.certificate) {
      const own = await certificatesOfRequest(deps.db, a.reference);
      if (!own.some((c) => c.id === values.certificate))
        errors.push({ field: 'oprava-doklad', message: T.errors.certificateMismatch ?? '' });
    }
    const checked = checkCorrection({
      status: values.status,
      reason: values.reason,
      certificate: values.certificate || null,
    });
    if (!checked.ok)
      for (const p of checked.problems)
        errors.push(
          p.path === 'reason'
            ? {
                field: 'oprava-duvod',
                message: values.reason.trim() ? `${T.errors.note}: ${p.message}` : (T.errors.reason ?? ''),
              }
            : p.path === 'certificate'
              ? { field: 'oprava-doklad', message: T.errors.certificate ?? '' }
              : { field: 'oprava-stav', message: T.errors.status ?? '' },
        );
    if (errors.length > 0 || !checked.ok) {
      await auditConsole(deps, a.staff, 'correct', a.reference, 'invalid');
      return formError(deps, reply, a.staff, a.reference, 'correct', errors, values);
    }
    const correction = checked.correction;
    if (form.potvrdit !== '1') {
      return preview(deps, reply, a, {
        action: 'oprava',
        status: correction.status,
        note: correction.reason,
        certificate: correction.certificate,
        correction: true,
        certificateLink: correction.certificate ? checkLink(correction.certificate) : null,
      });
    }
    const r = await correctDecision(deps.db, a.reference, correction);
    await auditConsole(
      deps,
      a.staff,
      'correct',
      a.reference,
      outcomeOf(r.outcome),
      `${r.outcome} ${correction.status}`,
    );
    return answerDecision(deps, ctx, reply, a, r.outcome, {
      made: 'corrected',
      doneKey: 'corrected',
      form: 'correct',
      field: 'oprava-stav',
      values,
    });
  });

  app.post(`${base}/oznameni/:notice/znovu`, async (req, reply) => {
    const a = await actor(deps, req, reply, 'resend');
    if (!a) return reply;
    const id = Number((req.params as { notice?: string }).notice);
    const found = await findByReference(deps.db, a.reference);
    if (found.kind !== 'found' || !Number.isSafeInteger(id) || id <= 0) {
      await auditConsole(deps, a.staff, 'resend', a.reference, 'not_found');
      return sendMessage(reply, deps, a.staff, 'notFound');
    }
    const r = await resendNotice(deps.db, found.request.id, id, new Date());
    await auditConsole(deps, a.staff, 'resend', a.reference, r === 'none' ? 'not_found' : 'ok', r);
    if (r === 'none') return sendMessage(reply, deps, a.staff, 'notFound');
    if (r === 'resent') ctx.services.mail.kick();
    return done(reply, a.reference, r === 'resent' ? 'resent' : 'already');
  });
}

/** A decision's outcome as the audit log records it. */
function outcomeOf(outcome: string): 'ok' | 'not_found' | 'invalid' | 'gone' | 'denied' {
  if (outcome === 'changed' || outcome === 'corrected' || outcome === 'already') return 'ok';
  if (outcome === 'none') return 'not_found';
  if (outcome === 'erased') return 'gone';
  return 'invalid';
}
