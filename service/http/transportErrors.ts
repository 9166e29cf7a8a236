/**
 * Errors raised before a call reaches an operation — by Node's HTTP parser, by Fastify's router or body
 * handling — answered with the interface's error envelope and a request_id like every other error, instead
 * of Fastify's own `{"error":"Bad Request","code":"FST_…","statusCode":…}` bodies.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorEnvelope } from './envelope.ts';

/**
 * Longest path parameter the router matches (Fastify's default is 100 characters, past which it answers 414
 * itself). Node's 16 KiB header limit bounds a request line long before this, so every id reaches validation
 * and gets the operation's documented 422.
 */
export const MAX_PARAM_LENGTH = 64 * 1024;

interface HttpishError {
  statusCode?: number;
  code?: string;
  message?: string;
}

/** The code and message the envelope carries for a 4xx that no operation produced. */
export function clientErrorOf(status: number, error: HttpishError): { code: string; message: string } {
  if (error.code === 'FST_ERR_BAD_URL') {
    return { code: 'bad_request', message: 'The URL is not valid (malformed percent-encoding).' };
  }
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return { code: 'uri_too_long', message: 'A path segment is too long.' };
  }
  if (status === 413)
    return { code: 'payload_too_large', message: error.message ?? 'Request body too large.' };
  if (status === 415)
    return { code: 'unsupported_media_type', message: error.message ?? 'Unsupported media type.' };
  return { code: 'bad_request', message: error.message ?? 'Bad request.' };
}

/** Fastify's `frameworkErrors`: router-level failures (bad percent-encoding, over-long parameter). */
export function frameworkErrorHandler(
  error: HttpishError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : (error.statusCode ?? 400);
  const { code, message } =
    status >= 500
      ? { code: 'internal_error', message: 'An unexpected error occurred.' }
      : clientErrorOf(status, error);
  reply
    .header('x-request-id', request.id)
    .code(status)
    .send(errorEnvelope(code, message, request.id));
}

/**
 * The server's `clientError`: requests Node's parser refused (a request line or headers over 16 KiB, a NUL
 * or other invalid byte in the request line, an unknown method, a malformed header). No request object
 * exists, so the request id is a fresh UUID, sent in the envelope and the X-Request-Id header alike.
 */
export function clientErrorHandler(err: { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : err.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const message =
    status === 408
      ? 'The request was not received in time.'
      : status === 431
        ? 'The request line and headers exceed 16 KiB.'
        : 'The request is not valid HTTP.';
  const requestId = randomUUID();
  const code = status === 408 ? 'request_timeout' : status === 431 ? 'headers_too_large' : 'bad_request';
  const body = JSON.stringify(errorEnvelope(code, message, requestId));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
