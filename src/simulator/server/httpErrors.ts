/**
 * The two upstream error shapes (src/wire/errorBodies.ts): the gateway's `{code, message}` (401,
 * 429, unknown base path) and the service's `{type, message, code?, param?, request_id}` (400,
 * 404, 405, 5xx).
 */
import type { GatewayErrorBody, ServiceErrorBody } from '../../wire/errorBodies.js';

/** Values of the published ErrorResponse.type (OpenAPI 2026-07-02) that the simulator sends. */
export type ServiceErrorType = 'invalid_request_error' | 'api_error';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: (requestId: string) => ServiceErrorBody | GatewayErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(`HTTP ${status}`);
  }
}

export function serviceError(
  status: number,
  type: ServiceErrorType,
  message: string,
  extra: { code?: string; param?: string } = {},
  headers: Record<string, string> = {},
): HttpError {
  return new HttpError(status, (requestId) => ({ type, message, ...extra, request_id: requestId }), headers);
}

export function gatewayError(status: number, message: string, headers: Record<string, string> = {}): HttpError {
  return new HttpError(status, () => ({ code: status, message }), headers);
}

export const badRequest = (param: string, message: string) =>
  serviceError(400, 'invalid_request_error', message, { code: 'invalid_parameter', param });

/** An unknown id: the published type list has no not-found type, so the `code` says it. */
export const notFound = (message: string, param?: string) =>
  serviceError(404, 'invalid_request_error', message, param === undefined ? { code: 'not_found' } : { code: 'not_found', param });

const SERVER_ERROR_TEXT: Record<number, [string, string]> = {
  500: ['internal_error', 'Internal server error'],
  502: ['bad_gateway', 'Upstream provider request failed'],
  503: ['service_unavailable', 'Service temporarily unavailable'],
};

export function serverError(status: 500 | 502 | 503): HttpError {
  const [code, message] = SERVER_ERROR_TEXT[status]!;
  return serviceError(status, 'api_error', message, { code });
}
