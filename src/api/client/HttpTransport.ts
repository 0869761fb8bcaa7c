import type { IncomingHttpHeaders } from 'node:http';

import { Agent, type Dispatcher, errors } from 'undici';

import { createSecretRedactor, MIN_SECRET_FRAGMENT, type Redact } from '../../errors/createSecretRedactor.js';
import { redactJsonText } from '../../errors/redactJsonText.js';
import { headerValueProblem } from '../../net/headerValueProblem.js';
import { ApiKeyInvalidError, ApiNetworkError, type ApiRequestContext, ApiResponseTooLargeError, ApiTimeoutError } from '../errors.js';

export interface HttpTransportOptions {
  /** `https://host:port` of the API. */
  readonly origin: string;
  /** Sent as the `x-api-key` header and nowhere else; refused (ApiKeyInvalidError) if it cannot be. */
  readonly apiKey: string | undefined;
  readonly connectTimeoutMs: number;
  readonly headersTimeoutMs: number;
  readonly bodyTimeoutMs: number;
  readonly requestTimeoutMs: number;
  readonly maxResponseBytes: number;
  readonly interceptors: readonly Dispatcher.DispatcherComposeInterceptor[];
  readonly userAgent: string;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/**
 * One GET over the shared undici Agent, read to the end: one overall deadline over connect,
 * headers and body (undici's bodyTimeout restarts on every chunk, so a slow trickle would never
 * trip it), a cap on the body size, and failures mapped to typed errors carrying the request.
 *
 * The key is taken out of every body before anyone reads it: an upstream (or a gateway in front
 * of it) that reflects `x-api-key` in an answer put the key in an exit message and in
 * `ingest_runs.error`. Here, at the one place every body passes, it can reach no error,
 * rejection reason, stored payload or log line downstream.
 */
export class HttpTransport {
  readonly #agent: Agent;
  readonly #dispatcher: Dispatcher;
  readonly #headers: Record<string, string>;
  readonly #redact: Redact;

  constructor(private readonly options: HttpTransportOptions) {
    if (options.apiKey !== undefined) {
      const problem = headerValueProblem(options.apiKey);
      if (problem !== undefined) throw new ApiKeyInvalidError(problem);
    }
    // A key shorter than a fragment would match ordinary text and corrupt the data itself; no real
    // key is that short (the simulator's test keys are not), and the log and exit-message scrubbers
    // still match it whole.
    const key = options.apiKey;
    this.#redact = createSecretRedactor([key !== undefined && key.length >= MIN_SECRET_FRAGMENT ? key : undefined]);
    this.#agent = new Agent({
      connect: { timeout: options.connectTimeoutMs },
      headersTimeout: options.headersTimeoutMs,
      bodyTimeout: options.bodyTimeoutMs,
      maxResponseSize: options.maxResponseBytes,
    });
    this.#dispatcher = options.interceptors.length > 0 ? this.#agent.compose(...options.interceptors) : this.#agent;
    this.#headers = { accept: 'application/json', 'user-agent': options.userAgent };
    if (options.apiKey !== undefined) this.#headers['x-api-key'] = options.apiKey;
  }

  /**
   * Sends `request`, calls `onHeaders` as soon as the status is known (so a 429 can close the
   * gate before the body has arrived), then reads the body. `stop` aborts it; its reason is thrown.
   * `maxBytes` lowers the body cap for this request (never above `maxResponseBytes`).
   */
  async send(
    request: ApiRequestContext,
    stop: AbortSignal,
    onHeaders: (status: number, headers: IncomingHttpHeaders) => void,
    maxBytes = this.options.maxResponseBytes,
  ): Promise<HttpResponse> {
    const capBytes = Math.min(maxBytes, this.options.maxResponseBytes);
    stop.throwIfAborted();
    const controller = new AbortController();
    let deadlinePassed = false;
    const deadline = setTimeout(() => {
      deadlinePassed = true;
      controller.abort();
    }, this.options.requestTimeoutMs);
    const onStop = () => controller.abort(stop.reason);
    stop.addEventListener('abort', onStop, { once: true });
    try {
      const response = await this.#dispatcher.request({
        origin: this.options.origin,
        path: request.target,
        method: request.method,
        headers: this.#headers,
        signal: controller.signal,
      });
      onHeaders(response.statusCode, response.headers);
      const declaredBytes = Number(response.headers['content-length']);
      if (declaredBytes > capBytes) {
        // Destroying rather than draining: there is no point downloading what will be refused.
        response.body.destroy();
        throw this.#tooLarge(request, capBytes, `declared ${declaredBytes} bytes`);
      }
      const text = redactJsonText(await this.#readText(response.body, request, capBytes), this.#redact);
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (stop.aborted) throw stop.reason;
      if (error instanceof ApiResponseTooLargeError) throw error;
      if (deadlinePassed) {
        throw new ApiTimeoutError(`No complete response within ${this.options.requestTimeoutMs} ms`, { request, cause: error });
      }
      if (error instanceof errors.ResponseExceededMaxSizeError)
        throw this.#tooLarge(request, this.options.maxResponseBytes, 'while reading', error);
      if (
        error instanceof errors.ConnectTimeoutError ||
        error instanceof errors.HeadersTimeoutError ||
        error instanceof errors.BodyTimeoutError
      ) {
        throw new ApiTimeoutError(`Request timed out (${(error as Error).name})`, { request, cause: error });
      }
      throw new ApiNetworkError(`Network error: ${networkReason(error)}`, { request, cause: error });
    } finally {
      clearTimeout(deadline);
      stop.removeEventListener('abort', onStop);
    }
  }

  /** Waits for requests in flight, then closes every connection. */
  async close(): Promise<void> {
    await this.#agent.close();
  }

  /** Aborts requests in flight and closes every connection now. */
  async destroy(): Promise<void> {
    await this.#agent.destroy();
  }

  /**
   * The body as UTF-8 text (a leading BOM dropped, as undici's text() does), counted as it
   * arrives: a body without content-length is cut as soon as it passes `capBytes`, so no more
   * than that is ever held for one request.
   */
  async #readText(body: Dispatcher.ResponseData['body'], request: ApiRequestContext, capBytes: number): Promise<string> {
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > capBytes) {
        body.destroy();
        throw this.#tooLarge(request, capBytes, `more than ${capBytes} bytes read`);
      }
      chunks.push(chunk);
    }
    const buffer = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, bytes);
    const bom = buffer.length > 2 && buffer[0] === 0xef && buffer[1] === 0xbb && buffer[2] === 0xbf;
    return buffer.toString('utf8', bom ? 3 : 0);
  }

  #tooLarge(request: ApiRequestContext, capBytes: number, how: string, cause?: unknown): ApiResponseTooLargeError {
    return new ApiResponseTooLargeError(`Response body over the ${capBytes}-byte cap (${how})`, { request, cause, capBytes });
  }
}

function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as Error & { code?: unknown }).code;
  return typeof code === 'string' ? `${code} ${error.message}` : error.message;
}
