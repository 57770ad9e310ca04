import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { cookieOptions, SESSION_COOKIE } from '../nia/sessions.js';

/**
 * The NIA session cookie as the routes read and clear it: the sign-in routes write it, validate
 * and submit read it, submit clears it when the request it was for is stored. One module, so
 * that no route imports another.
 */

/** @fastify/cookie once per app: any route reading the session cookie calls this first. */
export async function ensureCookies(app: FastifyInstance): Promise<void> {
  if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);
}

export const sessionCookie = (req: FastifyRequest): string | undefined => req.cookies?.[SESSION_COOKIE];

export function setSessionCookie(reply: FastifyReply, id: string, publicUrl: string, seconds: number): void {
  reply.setCookie(SESSION_COOKIE, id, cookieOptions(publicUrl, seconds));
}

export function clearSessionCookie(reply: FastifyReply, publicUrl: string): void {
  const { maxAge: _drop, ...opts } = cookieOptions(publicUrl, 0);
  reply.clearCookie(SESSION_COOKIE, opts);
}
